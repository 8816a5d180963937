/**
 * Filters and orders of a search, shared by every store backend (ADR 0033):
 * - `role`: only rows of this role.
 * - `toolName`: only rows holding a call of this tool (compared case-insensitively). A call and
 *   its result are one part of one row (docs/design.md §3), so the row of the call is the row of the
 *   result too.
 * - `order`: ranked results by `relevance` (default) or `newest` first; literal results are
 *   always newest first.
 * Filters only ever narrow a search: the privacy floor, hidden rows and the ranked bound
 * (ADR 0016) apply first, exactly as without a filter.
 */
import { InvalidArgumentError } from "./errors.js";
import type { RowRole } from "./row.js";
import { toolNameOf } from "./row-text.js";
import type { SearchMode } from "./search-query.js";

export const SEARCH_ROLES = ["user", "assistant", "system"] as const satisfies readonly RowRole[];
export const SEARCH_ORDERS = ["relevance", "newest"] as const;
export type SearchOrder = (typeof SEARCH_ORDERS)[number];

/** Longest tool name a filter accepts. */
export const MAX_TOOL_NAME_CHARS = 200;

export interface SearchFilter {
  role?: RowRole | undefined;
  toolName?: string | undefined;
}

interface FilteredRow {
  role: string;
  parts: readonly { type: string; [key: string]: unknown }[];
}

/** Whether the filter leaves anything out at all. */
export function hasSearchFilter(filter: SearchFilter): boolean {
  return filter.role !== undefined || filter.toolName !== undefined;
}

/**
 * Whether a row passes the filter.
 *
 * @example rowMatchesFilter({ role: "assistant", parts: [{ type: "tool-grep" }] }, { toolName: "Grep" }) // true
 */
export function rowMatchesFilter(row: FilteredRow, filter: SearchFilter): boolean {
  if (filter.role !== undefined && row.role !== filter.role) return false;
  if (filter.toolName === undefined) return true;
  const wanted = filter.toolName.toLowerCase();
  return row.parts.some((part) => toolNameOf(part)?.toLowerCase() === wanted);
}

/**
 * The filter terms a backend indexes for a searchable row (ADR 0051): `role:<role>`, and
 * `tool:<name in lower case>` for each tool it calls. A row passes a filter only if it holds
 * `filterWalkTerm(filter)`, so the rows holding that term are a complete list of candidates.
 *
 * @example filterTermsOf({ role: "assistant", parts: [{ type: "tool-Bash" }, { type: "tool-bash" }] }) // ["role:assistant", "tool:bash"]
 */
export function filterTermsOf(row: FilteredRow): string[] {
  const terms = new Set([`role:${row.role}`]);
  for (const part of row.parts) {
    const name = toolNameOf(part);
    if (name !== undefined) terms.add(`tool:${name.toLowerCase()}`);
  }
  return [...terms];
}

/**
 * The one filter term every row passing `filter` holds (the tool's when a tool is named, which is
 * the rarer, else the role's); `undefined` without a filter.
 *
 * @example filterWalkTerm({ role: "assistant", toolName: "Bash" }) // "tool:bash"
 */
export function filterWalkTerm(filter: SearchFilter): string | undefined {
  if (filter.toolName !== undefined) return `tool:${filter.toolName.toLowerCase()}`;
  return filter.role === undefined ? undefined : `role:${filter.role}`;
}

/**
 * Every filter term a row must hold to pass `filter` (ADR 0051): the role's and the tool's. A search
 * across sessions asks the filter terms for each of them (ADR 0093); none without a filter.
 *
 * @example filterTermsRequired({ role: "assistant", toolName: "Bash" }) // ["role:assistant", "tool:bash"]
 */
export function filterTermsRequired(filter: SearchFilter): string[] {
  return [
    ...(filter.role === undefined ? [] : [`role:${filter.role}`]),
    ...(filter.toolName === undefined ? [] : [`tool:${filter.toolName.toLowerCase()}`]),
  ];
}

export interface CheckedSearchFilter extends SearchFilter {
  order: SearchOrder;
}

/**
 * Checks the filter and order options of a search; throws `InvalidArgumentError` with a message
 * naming the option and what it must be.
 *
 * @example checkSearchFilter({ mode: "ranked", role: "user", order: "newest" }) // { role: "user", order: "newest" }
 */
export function checkSearchFilter({
  mode,
  role,
  toolName,
  order,
}: {
  mode: SearchMode;
  role?: unknown;
  toolName?: unknown;
  order?: unknown;
}): CheckedSearchFilter {
  if (role !== undefined && !(SEARCH_ROLES as readonly unknown[]).includes(role)) {
    throw new InvalidArgumentError(
      `role must be one of ${SEARCH_ROLES.map((name) => `'${name}'`).join(", ")}; got ${JSON.stringify(role)}.`,
    );
  }
  if (
    toolName !== undefined &&
    (typeof toolName !== "string" || toolName.trim().length === 0 || toolName.length > MAX_TOOL_NAME_CHARS)
  ) {
    throw new InvalidArgumentError(
      `toolName must be a tool name of 1 to ${MAX_TOOL_NAME_CHARS} characters; ` +
        `got ${typeof toolName === "string" && toolName.length <= 40 ? JSON.stringify(toolName) : typeof toolName}.`,
    );
  }
  if (order !== undefined && !(SEARCH_ORDERS as readonly unknown[]).includes(order)) {
    throw new InvalidArgumentError(`order must be 'relevance' or 'newest'; got ${JSON.stringify(order)}.`);
  }
  if (mode === "literal" && order === "relevance") {
    throw new InvalidArgumentError("order 'relevance' needs a ranked search; literal results are always newest first.");
  }
  return {
    ...(role === undefined ? {} : { role: role as RowRole }),
    ...(toolName === undefined ? {} : { toolName: (toolName as string).trim() }),
    order: (order as SearchOrder | undefined) ?? (mode === "ranked" ? "relevance" : "newest"),
  };
}
