/**
 * Turns validated row inputs into stored rows: assigns seq, window and privacy floor, and renders
 * the text the search indexes. Shared by every backend so that all of them store rows alike.
 */
import { classifyBoundary, rolloverMetaOf } from "../core/boundary.js";
import { ROW_FORMAT_VERSION, type BoundaryKind, type RowInput } from "../core/row.js";
import { renderRowText } from "../core/row-text.js";
import { filterTermsOf } from "../core/search-filter.js";
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
  /** Text indexed for search ('' for rows that are not visible). */
  searchText: string;
  /** Filter terms indexed for search (`filterTermsOf`; none for rows without search text, ADR 0051). */
  filterTerms: string[];
  /** The row as stored (JSON), without the columns sessionId and seq. */
  body: string;
}

export interface AppendPlan {
  rows: PlannedRow[];
  cursor: SessionCursor;
}

export function planAppend(
  sessionId: string,
  inputs: readonly RowInput[],
  start: SessionCursor,
  { createdAt, generateId }: { createdAt: string; generateId: () => string },
): AppendPlan {
  const cursor = { ...start };
  const rows = inputs.map((input): PlannedRow => {
    cursor.lastSeq += 1;
    const seq = cursor.lastSeq;
    const row: StoredRow = { ...input, sessionId, seq, id: input.id ?? generateId(), createdAt: input.createdAt ?? createdAt };
    const boundaryKind = classifyBoundary(row);
    if (boundaryKind !== undefined) cursor.activeWindowSeq = seq;
    if (boundaryKind === "reset") cursor.floorSeq = seq;
    const visible = isHistoryVisible(row);
    const searchText = visible ? renderRowText(row) : "";
    const rollover = rolloverMetaOf(row);
    const { sessionId: _sessionId, seq: _seq, ...rest } = row;
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
      filterTerms: searchText.length > 0 ? filterTermsOf(row) : [],
      body: JSON.stringify({ v: ROW_FORMAT_VERSION, ...rest }),
    };
  });
  return { rows, cursor };
}
