/**
 * `session_history` over every session of a store, for agents that were not built on ctxwin (the
 * MCP server): the single-session tool's actions on the session named by `session_id`, run by
 * that tool's own code, plus `list_sessions` and cross-session `search`. Read-only; every answer
 * is one JSON result of at most 16 KiB, bad input included (an error result, never an exception).
 */
import { STORE_HISTORY_LABEL } from "../../core/history-view/limits.js";
import { visibleSession } from "../../store/lineage/session-visibility.js";
import type { HistoryStore } from "../../store/port.js";
import { RecentItems } from "../session-history/history-context.js";
import type { SessionHistoryResult } from "../session-history/results.js";
import { executeSessionHistory } from "../session-history/session-history-tool.js";
import { checkCatalogInput } from "./catalog-input.js";
import { catalogError, type CatalogResult } from "./catalog-results.js";
import { listSessions } from "./list-sessions.js";
import { searchSessions } from "./search-sessions.js";
import { SessionCatalog } from "./session-descriptors.js";

export { STORE_HISTORY_DESCRIPTION } from "./store-history-description.js";

export interface StoreHistory {
  readonly catalog: SessionCatalog;
  /** Runs one call; bad input comes back as an error result. */
  execute(input: unknown): Promise<CatalogResult | SessionHistoryResult>;
}

/**
 * @example
 * const history = createStoreHistory({ store, projectDirectory: process.cwd() });
 * const result = await history.execute({ action: "search", query: "staging database" });
 */
export function createStoreHistory({
  store,
  projectDirectory,
}: {
  store: HistoryStore;
  projectDirectory?: string;
}): StoreHistory {
  const catalog = new SessionCatalog({ store, ...(projectDirectory === undefined ? {} : { projectDirectory }) });
  const recentBySession = new Map<string, RecentItems>();

  /** One small page cache per session, for the few sessions read most recently. */
  function recentItemsOf(sessionId: string): RecentItems {
    const recent = recentBySession.get(sessionId) ?? new RecentItems();
    recentBySession.delete(sessionId);
    recentBySession.set(sessionId, recent);
    for (const oldest of recentBySession.keys()) {
      if (recentBySession.size <= 4) break;
      recentBySession.delete(oldest);
    }
    return recent;
  }

  async function execute(input: unknown): Promise<CatalogResult | SessionHistoryResult> {
    const checked = checkCatalogInput(input);
    if (!checked.ok) return catalogError({ action: checked.action, code: "invalid_input", message: checked.message });
    const { request } = checked;
    switch (request.kind) {
      case "list_sessions":
        return listSessions({ catalog, filter: request.filter, offset: request.offset, limit: request.limit });
      case "search_sessions":
        return searchSessions({ catalog, filter: request.filter, offset: request.offset, input: request.input });
      case "one_session": {
        // A child a clear above it hides (ADR 0073) is answered like an unknown session: nothing is revealed.
        if ((await visibleSession({ store, sessionId: request.sessionId })) === undefined) {
          const action = request.input["action"] as CatalogResult["action"];
          const message =
            `Session ${JSON.stringify(request.sessionId)} is not available in this store; ` +
            "call list_sessions for the sessions there are.";
          return catalogError({ action, code: "session_not_available", message });
        }
        // The caller is not that session's agent: its results do not speak of "this session".
        return executeSessionHistory({
          store,
          sessionId: request.sessionId,
          input: request.input,
          recentItems: recentItemsOf(request.sessionId),
          label: STORE_HISTORY_LABEL,
        });
      }
    }
  }

  return { catalog, execute };
}
