/**
 * `search` over a session and its sub-agents' sessions (issue 30, ADR 0060): the first page of a
 * search without `session_id`, `window_id`, `before_item` or `offset` also searches every visible
 * descendant and merges the hits, each naming its session. Literal (and ranked `newest`) hits are
 * merged newest first; ranked by relevance, the sessions take turns, best first. `next` pages on
 * in this session; `more_in_sessions` names sub-agent sessions with more hits (search them with
 * `session_id`).
 */
import { fitEntries } from "../../core/history-view/bounded-result.js";
import { MAX_RESULT_BYTES, SEARCH_LIMIT } from "../../core/history-view/limits.js";
import { loadHistoryContext, type HistoryContext } from "./history-context.js";
import { visibleDescendants } from "./descendants.js";
import type { SessionHistoryInput } from "./input-schema.js";
import type { SearchHitEntry, SearchResult, SessionHistoryErrorResult } from "./results.js";
import { searchHistory } from "./search.js";

/** @example await searchWithDescendants(context, { action: "search", query: "codename" }) */
export async function searchWithDescendants(
  context: HistoryContext,
  input: SessionHistoryInput,
): Promise<SearchResult | SessionHistoryErrorResult> {
  const own = await searchHistory(context, input);
  const firstPage = input.before_item == null && (input.offset ?? 0) === 0 && input.window_id == null;
  if (!own.ok || !firstPage) return own;
  const descendants = await visibleDescendants(context.store, context.sessionId, context.floor);
  if (descendants.length === 0) return own;
  const lists: SearchHitEntry[][] = [own.hits.map((hit) => ({ ...hit, session_id: context.sessionId }))];
  const moreIn: string[] = [];
  for (const { summary } of descendants) {
    const child = await searchHistory(
      await loadHistoryContext({ store: context.store, sessionId: summary.sessionId }),
      input,
    );
    if (!child.ok) continue;
    lists.push(child.hits.map((hit) => ({ ...hit, session_id: summary.sessionId })));
    if (child.has_more) moreIn.push(summary.sessionId);
  }
  const newestFirst = own.mode === "literal" || input.order === "newest";
  const merged = newestFirst ? byTime(lists) : takingTurns(lists);
  const limit = input.limit ?? SEARCH_LIMIT.default;
  const build = (kept: SearchHitEntry[]): SearchResult => {
    const ownKept = kept.filter((hit) => hit.session_id === context.sessionId);
    const ownCut = ownKept.length < own.hits.length;
    const childrenCut = kept.length - ownKept.length < merged.length - own.hits.length;
    const more = [
      ...new Set([
        ...moreIn,
        ...(childrenCut
          ? merged
              .filter((hit) => !kept.includes(hit) && hit.session_id !== context.sessionId)
              .map((hit) => hit.session_id ?? "")
          : []),
      ]),
    ];
    const next = ownCut ? ownNext(own, ownKept) : own.next;
    return {
      ...own,
      hits: kept,
      has_more: own.has_more || ownCut || more.length > 0,
      next,
      ...(more.length === 0 ? {} : { more_in_sessions: more }),
    };
  };
  return fitEntries({ entries: merged.slice(0, limit), build, maxBytes: MAX_RESULT_BYTES })?.result ?? build([]);
}

function byTime(lists: readonly SearchHitEntry[][]): SearchHitEntry[] {
  return lists.flat().sort((left, right) => right.created_at.localeCompare(left.created_at));
}

function takingTurns(lists: readonly SearchHitEntry[][]): SearchHitEntry[] {
  const merged: SearchHitEntry[] = [];
  for (let rank = 0; lists.some((list) => rank < list.length); rank += 1) {
    for (const list of lists) if (rank < list.length) merged.push(list[rank] as SearchHitEntry);
  }
  return merged;
}

/** This session's next page after the own hits the merged page kept. */
function ownNext(own: SearchResult, kept: readonly SearchHitEntry[]): SearchResult["next"] {
  if (own.mode !== "literal") return { offset: kept.length };
  const oldest = kept.at(-1) ?? own.hits[0];
  const item = oldest === undefined ? undefined : kept.length > 0 ? oldest.item_id : String(Number(oldest.item_id) + 1);
  return item === undefined ? null : { before_item: item };
}
