/**
 * Argument checks shared by every backend, so that all of them refuse the same bad input
 * with the same clear message.
 */
import { InvalidArgumentError } from "../core/errors.js";
import { assertSessionId } from "../core/row.js";
import { checkSearchFilter, type CheckedSearchFilter } from "../core/search-filter.js";
import { assertSearchableQuery } from "../core/search-query.js";
import { parseWindowId } from "../core/windows.js";
import type { ItemsOptions, SearchOptions, WindowsOptions } from "./port.js";

export const MAX_PAGE_LIMIT = 1_000;

export function checkLimit(limit: unknown, fallback: number, max = MAX_PAGE_LIMIT): number {
  if (limit === undefined) return fallback;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > max) {
    throw new InvalidArgumentError(`limit must be an integer from 1 to ${max}; got ${String(limit)}.`);
  }
  return limit;
}

export function checkSeq(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(`${name} must be a non-negative integer; got ${String(value)}.`);
  }
  return value;
}

/** Most seqs one `readHits` call reads. */
export const MAX_READ_HITS = 10_000;

/**
 * The seqs of a `readHits` call, checked: an array of at most `MAX_READ_HITS` non-negative integers.
 *
 * @example checkReadHits("s1", [3, 1]) // [3, 1]
 */
export function checkReadHits(sessionId: unknown, seqs: unknown): number[] {
  assertSessionId(sessionId);
  if (!Array.isArray(seqs) || seqs.length > MAX_READ_HITS) {
    throw new InvalidArgumentError(
      `seqs must be an array of at most ${MAX_READ_HITS} seqs; got ${Array.isArray(seqs) ? `${seqs.length} seqs` : String(seqs)}.`,
    );
  }
  return seqs.map((seq) => checkSeq("each seq", seq) as number);
}

export function checkWindowId(name: string, windowId: unknown): number | undefined {
  if (windowId === undefined) return undefined;
  const seq = parseWindowId(windowId);
  if (seq === undefined)
    throw new InvalidArgumentError(`${name} must look like 'w:0' or 'w:<seq>'; got ${JSON.stringify(windowId)}.`);
  return seq;
}

export interface CheckedWindows {
  limit: number;
  beforeWindowSeq: number | undefined;
  includeCleared: boolean;
}

export function checkWindowsOptions(sessionId: unknown, options: WindowsOptions = {}): CheckedWindows {
  assertSessionId(sessionId);
  return {
    limit: checkLimit(options.limit, 50),
    beforeWindowSeq: checkWindowId("beforeWindow", options.beforeWindow),
    includeCleared: options.includeCleared === true,
  };
}

export interface CheckedItems {
  windowSeq: number | undefined;
  afterSeq: number | undefined;
  beforeSeq: number | undefined;
  limit: number;
  includeCleared: boolean;
}

export function checkItemsOptions(sessionId: unknown, options: ItemsOptions = {}): CheckedItems {
  assertSessionId(sessionId);
  return {
    windowSeq: checkWindowId("windowId", options.windowId),
    afterSeq: checkSeq("afterSeq", options.afterSeq),
    beforeSeq: checkSeq("beforeSeq", options.beforeSeq),
    limit: checkLimit(options.limit, 50),
    includeCleared: options.includeCleared === true,
  };
}

export interface CheckedSearch extends CheckedSearchFilter {
  query: string;
  mode: "literal" | "ranked";
  windowSeq: number | undefined;
  beforeSeq: number | undefined;
  limit: number;
  offset: number;
  includeCleared: boolean;
}

export function checkSearchOptions(sessionId: unknown, options: SearchOptions): CheckedSearch {
  assertSessionId(sessionId);
  if (options === null || typeof options !== "object") throw new InvalidArgumentError("search needs { query, mode }.");
  const mode = options.mode;
  if (mode !== "literal" && mode !== "ranked")
    throw new InvalidArgumentError(`mode must be 'literal' or 'ranked'; got ${String(mode)}.`);
  return {
    query: assertSearchableQuery(options.query, mode),
    mode,
    windowSeq: checkWindowId("windowId", options.windowId),
    beforeSeq: checkSeq("beforeSeq", options.beforeSeq),
    limit: checkLimit(options.limit, 10),
    offset: checkSeq("offset", options.offset) ?? 0,
    includeCleared: options.includeCleared === true,
    ...checkSearchFilter({ mode, role: options.role, toolName: options.toolName, order: options.order }),
  };
}

export function checkOperationId(operationId: unknown): string | undefined {
  if (operationId === undefined) return undefined;
  if (typeof operationId !== "string" || operationId.length === 0 || operationId.length > 200) {
    throw new InvalidArgumentError("operationId must be a string of 1 to 200 characters.");
  }
  return operationId;
}
