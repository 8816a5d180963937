/**
 * `list_sessions`: the sub-agent sessions below this one that `session_history` can read, oldest
 * first: their ids (for `session_id`), their parent and the item of the `task` call that started
 * each, and their last item (issue 30).
 */
import { fitEntries } from "../../core/history-view/bounded-result.js";
import { HISTORY_LABEL, MAX_RESULT_BYTES } from "../../core/history-view/limits.js";
import type { HistoryContext } from "./history-context.js";
import { visibleDescendants } from "./descendants.js";
import type { SessionHistoryInput } from "./input-schema.js";
import type { ListSessionsResult, SessionEntry } from "./results.js";

export const SESSION_LIST_LIMIT = { default: 20, max: 50 } as const;

/** @example await listSessions(context, { action: "list_sessions" }) */
export async function listSessions(context: HistoryContext, input: SessionHistoryInput): Promise<ListSessionsResult> {
  const limit = Math.min(input.limit ?? SESSION_LIST_LIMIT.default, SESSION_LIST_LIMIT.max);
  const skip = input.offset ?? 0;
  const all = await visibleDescendants(context.store, context.sessionId, context.floor);
  const entries: SessionEntry[] = all
    .slice(skip, skip + limit)
    .map(({ summary, parentSessionId, parentItemId, depth }) => ({
      session_id: summary.sessionId,
      parent_session_id: parentSessionId,
      parent_item_id: parentItemId,
      depth,
      last_item: summary.lastSeq === 0 ? null : String(summary.lastSeq),
      created_at: summary.createdAt,
      updated_at: summary.updatedAt,
    }));
  const build = (kept: SessionEntry[]): ListSessionsResult => {
    const hasMore = skip + kept.length < all.length;
    return {
      label: HISTORY_LABEL,
      ok: true,
      action: "list_sessions",
      sessions: kept,
      has_more: hasMore,
      next: hasMore ? { offset: skip + kept.length } : null,
    };
  };
  return fitEntries({ entries, build, maxBytes: MAX_RESULT_BYTES })?.result ?? build([]);
}
