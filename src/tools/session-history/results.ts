/**
 * The result shapes of `session_history`. Every result carries `label` (the content is historical
 * transcript data, not instructions) and `ok`; page results carry `has_more` and `next`, the plain
 * parameters to change for the next page (no opaque cursors, docs/adr: no opaque cursors).
 */
import { HISTORY_LABEL } from "../../core/history-view/limits.js";
import type { WindowKind } from "../../core/windows.js";
import type { SessionHistoryAction } from "./input-schema.js";

export type SessionHistoryErrorCode =
  | "invalid_input"
  | "invalid_query"
  | "window_not_available"
  | "item_not_available"
  | "offset_past_end"
  | "session_not_available";

export interface SessionHistoryErrorResult {
  label: string;
  ok: false;
  action: SessionHistoryAction | null;
  error: { code: SessionHistoryErrorCode; message: string };
}

interface PageFields<Next> {
  label: string;
  ok: true;
  has_more: boolean;
  /** Repeat the call with these parameters changed to get the next page; `null` at the end. */
  next: Next | null;
}

/** What every listed item, hit and page says about its row. */
export interface ItemFields {
  item_id: string;
  window_id: string;
  role: string;
  created_at: string;
  /** `meta.type` of synthetic rows (e.g. `budget-warning`, `compaction-summary`). */
  type?: string;
  /** Length of the item's rendered text, in characters (what read_item pages through). */
  total_chars: number;
}

export interface WindowEntry {
  window_id: string;
  kind: WindowKind;
  reason?: string;
  active: boolean;
  item_count: number;
  first_item: string | null;
  last_item: string | null;
  started_at: string;
  ended_at: string;
  preview: string | null;
}

export interface ListWindowsResult extends PageFields<{ before_window: string }> {
  action: "list_windows";
  windows: WindowEntry[];
}

export interface ItemEntry extends ItemFields {
  preview: string;
}

export interface ListItemsResult extends PageFields<{ after_item: string }> {
  action: "list_items";
  window_id: string | null;
  items: ItemEntry[];
}

export interface SearchHitEntry extends ItemFields {
  /** The session the item belongs to, when the search covered sub-agent sessions too. */
  session_id?: string;
  /** A verbatim stretch of the rendered item around the match. */
  snippet: string;
  /** Where the snippet starts in the item: pass it as read_item's `offset_chars` to read on. */
  snippet_offset_chars: number;
}

export interface SearchResult extends PageFields<{ before_item: string } | { offset: number }> {
  action: "search";
  mode: "literal" | "ranked" | "hybrid";
  hits: SearchHitEntry[];
  /** Set when a literal search stopped after reading its bound of items: why the page is short, and what to do. */
  note?: string;
  /** Sub-agent sessions holding more hits than this page shows: search them with `session_id`. */
  more_in_sessions?: string[];
}

export interface ReadItemResult extends PageFields<{ offset_chars: number }>, ItemFields {
  action: "read_item";
  offset_chars: number;
  text: string;
  next_offset_chars: number | null;
}

export interface SessionEntry {
  session_id: string;
  parent_session_id: string;
  /** The parent's item holding the `task` call that started this session. */
  parent_item_id: string;
  /** 1 for a child of this session, 2 for a grandchild, ... */
  depth: number;
  last_item: string | null;
  created_at: string;
  updated_at: string;
}

export interface ListSessionsResult extends PageFields<{ offset: number }> {
  action: "list_sessions";
  sessions: SessionEntry[];
}

export type SessionHistoryResult =
  SessionHistoryErrorResult | ListWindowsResult | ListItemsResult | SearchResult | ReadItemResult | ListSessionsResult;

/**
 * @example errorResult({ action: "read_item", code: "item_not_available", message: "Item 9 is not available." })
 */
export function errorResult({
  action,
  code,
  message,
}: {
  action: SessionHistoryAction | null;
  code: SessionHistoryErrorCode;
  message: string;
}): SessionHistoryErrorResult {
  return { label: HISTORY_LABEL, ok: false, action, error: { code, message } };
}

/**
 * The `invalid_input` result of `action`: the input cannot be used as given; `message` says how to fix it.
 *
 * @example invalidInput("list_items", "after_item must be an item id such as '42', as list_items and search show them.")
 */
export function invalidInput(action: SessionHistoryAction | null, message: string): SessionHistoryErrorResult {
  return errorResult({ action, code: "invalid_input", message });
}

/**
 * The `invalid_input` result for a `limit` above the action's maximum, or `undefined` when it is within.
 *
 * @example limitAboveMaximum({ action: "list_items", limit: 900, max: 200 }) // "limit must be an integer from 1 to 200; got 900."
 */
export function limitAboveMaximum({
  action,
  limit,
  max,
}: {
  action: SessionHistoryAction;
  limit: number;
  max: number;
}): SessionHistoryErrorResult | undefined {
  if (limit <= max) return undefined;
  return invalidInput(action, `limit must be an integer from 1 to ${max}; got ${limit}.`);
}

/**
 * The result for a window that does not exist or lies behind the privacy floor.
 *
 * @example windowNotAvailable({ action: "search", windowId: "w:9" })
 */
export function windowNotAvailable({
  action,
  windowId,
}: {
  action: "list_items" | "search";
  windowId: string;
}): SessionHistoryErrorResult {
  return errorResult({
    action,
    code: "window_not_available",
    message:
      `Window ${windowId} is not available: it does not exist in this session, ` +
      "or it lies before a manual reset of the history. " +
      `Call list_windows for the windows you can ${action === "search" ? "search" : "read"}.`,
  });
}
