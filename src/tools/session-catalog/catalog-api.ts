/**
 * The cross-session catalog as library calls: the results `ctxwin mcp`'s `session_history` gives
 * (list_sessions; search across sessions), for code that wants them without an MCP client. Input
 * is checked as the tool checks it; bad input is an error result, never an exception.
 */
import type { RowRole } from "../../core/row.js";
import type { SearchOrder } from "../../core/search-filter.js";
import type { HistoryStore } from "../../store/port.js";
import { createStoreHistory } from "./store-history.js";
import type { CatalogResult } from "./catalog-results.js";
import type { SessionHistoryResult } from "../session-history/results.js";

/** Filters shared by both calls, as the tool names them. */
export interface CatalogFilter {
  /** Only sessions that ran in this folder or below it. */
  project?: string;
  /** Only sessions imported from this agent (`claude-code`, `codex`) or written by ctxwin (`ctxwin`). */
  source?: "claude-code" | "codex" | "ctxwin";
  /** ISO 8601 date or time: only sessions active at or after it. */
  since?: string;
  /** ISO 8601 date or time: only sessions that started at or before it. */
  until?: string;
  /** The page of `listSessions` (the previous result's `next.session_offset`). */
  session_offset?: number;
}

/**
 * The sessions of a store, newest activity first, each with its source, title (after the privacy
 * floor) and project, as many as fit in 16 KiB.
 *
 * @example const page = await listSessions({ store, source: "claude-code" });
 */
export async function listSessions({
  store,
  projectDirectory,
  limit,
  ...filter
}: { store: HistoryStore; projectDirectory?: string; limit?: number } & CatalogFilter): Promise<
  CatalogResult | SessionHistoryResult
> {
  return createStoreHistory({ store, ...(projectDirectory === undefined ? {} : { projectDirectory }) }).execute({
    action: "list_sessions",
    ...filter,
    ...(limit === undefined ? {} : { limit }),
  });
}

/**
 * A search across every session of a store (literal, ranked or hybrid) in one query (ADR 0089, 0105); each hit names
 * its session and item. Pages by hit: pass the previous result's `next.offset` as `offset`. `role`,
 * `toolName` and `order` narrow and order it inside the same query (ADR 0093).
 *
 * @example const hits = await searchSessions({ store, query: "staging database", mode: "ranked", role: "user" });
 */
export async function searchSessions({
  store,
  projectDirectory,
  query,
  mode,
  limit,
  offset,
  role,
  toolName,
  order,
  ...filter
}: {
  store: HistoryStore;
  projectDirectory?: string;
  query: string;
  mode?: "literal" | "ranked" | "hybrid";
  limit?: number;
  offset?: number;
  role?: RowRole;
  toolName?: string;
  order?: SearchOrder;
} & CatalogFilter): Promise<CatalogResult | SessionHistoryResult> {
  return createStoreHistory({ store, ...(projectDirectory === undefined ? {} : { projectDirectory }) }).execute({
    action: "search",
    query,
    ...(mode === undefined ? {} : { mode }),
    ...(limit === undefined ? {} : { limit }),
    ...(offset === undefined ? {} : { offset }),
    ...(role === undefined ? {} : { role }),
    ...(toolName === undefined ? {} : { tool_name: toolName }),
    ...(order === undefined ? {} : { order }),
    ...filter,
  });
}
