/**
 * `list_sessions`: the sessions of a store that match the filters, newest activity first, paged
 * with `session_offset`, as many as fit in 16 KiB.
 */
import { fitEntries } from "../../core/history-view/bounded-result.js";
import { MAX_RESULT_BYTES, SESSION_LIMIT, STORE_HISTORY_LABEL } from "../../core/history-view/limits.js";
import { MAX_SESSION_OFFSET } from "./catalog-input.js";
import {
  catalogError,
  sessionEntry,
  type CatalogErrorResult,
  type ListSessionsResult,
  type SessionEntry,
} from "./catalog-results.js";
import type { SessionCatalog, SessionFilter } from "./session-descriptors.js";

/**
 * @example await listSessions({ catalog, filter: { source: "codex" }, offset: 0 })
 */
export async function listSessions({
  catalog,
  filter,
  offset,
  limit = SESSION_LIMIT.default,
}: {
  catalog: SessionCatalog;
  filter: SessionFilter;
  offset: number;
  limit?: number | undefined;
}): Promise<ListSessionsResult | CatalogErrorResult> {
  if (limit > SESSION_LIMIT.max) {
    return catalogError({
      action: "list_sessions",
      code: "invalid_input",
      message: `Invalid input: limit must be an integer from 1 to ${SESSION_LIMIT.max}; got ${limit}.`,
    });
  }
  const descriptors = await catalog.describe(filter);
  const entries = descriptors.slice(offset, offset + limit).map(sessionEntry);
  const build = (kept: SessionEntry[]): ListSessionsResult => {
    const nextOffset = offset + kept.length;
    const hasMore = nextOffset < descriptors.length;
    return {
      label: STORE_HISTORY_LABEL,
      ok: true,
      action: "list_sessions",
      sessions_total: descriptors.length,
      sessions: kept,
      has_more: hasMore,
      next: hasMore && nextOffset <= MAX_SESSION_OFFSET ? { session_offset: nextOffset } : null,
    };
  };
  return fitEntries({ entries, build, maxBytes: MAX_RESULT_BYTES })?.result ?? build([]);
}
