/**
 * Turns validated row inputs into stored rows: assigns seq, window and privacy floor, and renders
 * the text the search indexes, with the ranked terms of the row and of its context (the row right
 * before it, ADR 0052). Shared by every backend so that all of them store rows alike.
 */
import { classifyBoundary, rolloverMetaOf } from "../core/boundary.js";
import { contextTerms } from "../core/ranked-context.js";
import { ROW_FORMAT_VERSION, type BoundaryKind, type RowInput } from "../core/row.js";
import { filterTermsOf } from "../core/search-filter.js";
import { rankedTerms } from "../core/search-query.js";
import { renderSearchText } from "../core/search-text.js";
import { isHistoryVisible } from "../core/visibility.js";
import type { StoredRow } from "./port.js";

/** The per-session counters an append starts from. */
export interface SessionCursor {
  lastSeq: number;
  activeWindowSeq: number;
  floorSeq: number;
}

export interface PlannedRow {
  row: StoredRow;
  windowSeq: number;
  boundaryKind: BoundaryKind | undefined;
  rolloverId: string | undefined;
  reason: string | undefined;
  /** A rollover boundary's figures (its meta), kept in the window summary: context tokens and the limit they were measured against. */
  contextTokens: number | undefined;
  maxTokens: number | undefined;
  /** Listable, searchable and readable through `session_history`. */
  visible: boolean;
  /** Text indexed for search (`renderSearchText`; '' for rows that are not visible). */
  searchText: string;
  /** The ranked terms of `searchText` (`rankedTerms`). */
  terms: string[];
  /** The ranked-search context of an indexed row: the last terms of the indexed row right before it (ADR 0052). */
  contextTerms: string[];
  /** Filter terms indexed for search (`filterTermsOf`; none for rows without search text, ADR 0051). */
  filterTerms: string[];
  /** The row as stored (JSON), without the columns sessionId and seq. */
  body: string;
}

export interface AppendPlan {
  rows: PlannedRow[];
  cursor: SessionCursor;
}

/**
 * The text a stored row's search entries hold: `renderSearchText` (without the agent's own history
 * lookups, values cut at the search cut) when `session_history` may show it, else '' (not indexed).
 * The one place appends, index rebuilds and the context of the next row (ADR 0052) get it from.
 *
 * @example indexedTextOf(storedUserRow) // "Deploy the ledger service"
 */
export function indexedTextOf(row: StoredRow): string {
  return isHistoryVisible(row) ? renderSearchText(row) : "";
}

export interface PlanAppendOptions {
  createdAt: string;
  generateId: () => string;
  /**
   * The ranked terms of the stored row right before the first appended one (seq `start.lastSeq`),
   * `[]` when that row is not indexed. Called at most once, only when the first row is indexed.
   */
  previousTerms?: () => readonly string[];
}

export function planAppend(
  sessionId: string,
  inputs: readonly RowInput[],
  start: SessionCursor,
  { createdAt, generateId, previousTerms }: PlanAppendOptions,
): AppendPlan {
  const cursor = { ...start };
  let previous: (() => readonly string[]) | readonly string[] =
    start.lastSeq > 0 && previousTerms !== undefined ? previousTerms : [];
  const rows = inputs.map((input): PlannedRow => {
    cursor.lastSeq += 1;
    const seq = cursor.lastSeq;
    const row: StoredRow = {
      ...input,
      sessionId,
      seq,
      id: input.id ?? generateId(),
      createdAt: input.createdAt ?? createdAt,
    };
    const boundaryKind = classifyBoundary(row);
    if (boundaryKind !== undefined) cursor.activeWindowSeq = seq;
    if (boundaryKind === "reset") cursor.floorSeq = seq;
    const visible = isHistoryVisible(row);
    const rollover = rolloverMetaOf(row);
    const { sessionId: _sessionId, seq: _seq, ...rest } = row;
    const searchText = indexedTextOf(row);
    const terms = rankedTerms(searchText);
    const context = searchText.length === 0 ? [] : contextTerms(typeof previous === "function" ? previous() : previous);
    previous = terms;
    return {
      row,
      windowSeq: cursor.activeWindowSeq,
      boundaryKind,
      rolloverId: rollover?.rolloverId,
      reason: rollover?.reason,
      contextTokens: rollover?.contextTokens,
      maxTokens: rollover?.maxTokens,
      visible,
      searchText,
      terms,
      contextTerms: context,
      filterTerms: searchText.length > 0 ? filterTermsOf(row) : [],
      body: JSON.stringify({ v: ROW_FORMAT_VERSION, ...rest }),
    };
  });
  return { rows, cursor };
}
