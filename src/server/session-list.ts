/**
 * The sessions list of the web UI: newest activity first, each with a title (its first user
 * message after the privacy floor, at most 80 characters, or the id), filtered by a
 * case-insensitive substring of id or title, or of an item: the items are searched with the
 * store's cross-session search (`searchSessions`, ADR 0089), the query the MCP server and
 * `ctxwin history search` use. A list is a place to find sessions, so it follows the
 * floor like search does (ADR 0046): text at or before the newest manual reset never names or
 * finds a session. Titles are cached per session incarnation and floor: the first user message
 * after a floor never changes, and a new reset moves the floor. Each entry names its parent (a
 * sub-agent's session) and its fork origin, so that the list can show the sessions as a tree.
 * A child a clear above it hides (ADR 0073) is not listed at all.
 */
import { InvalidQueryError, foldCase } from "../core/search-query.js";
import { visibleSessions } from "../store/lineage/session-visibility.js";
import type { HistoryStore, SessionSummary } from "../store/port.js";
import { firstUserText } from "../tools/session-catalog/first-user-text.js";
import { displayText } from "./row-view.js";
import type { SessionListEntry } from "./view-types.js";

export const TITLE_MAX_CHARS = 80;
/** `q` finds at most this many sessions by their items (newest activity first), besides those it finds by id or title. */
export const MAX_ITEM_SEARCH_SESSIONS = 50;

/** The lineage fields of an entry. */
export function lineageOf(summary: SessionSummary | undefined): Pick<SessionListEntry, "parent" | "forkOf"> {
  const parent = summary?.parent;
  const forkOf = summary?.forkOf;
  return {
    parent: parent === undefined ? null : { sessionId: parent.sessionId, itemId: parent.itemId },
    forkOf: forkOf === undefined ? null : { sessionId: forkOf.sessionId, atItem: String(forkOf.atSeq) },
  };
}

/**
 * @example
 * const titles = createTitleCache({ store });
 * const entry = await titles.entryOf(summary);
 */
export function createTitleCache({ store }: { store: HistoryStore }) {
  const titles = new Map<string, { incarnation: string; floorSeq: number; title: string }>();
  return {
    async entryOf(summary: SessionSummary): Promise<SessionListEntry> {
      const cached = titles.get(summary.sessionId);
      const current =
        cached !== undefined && cached.incarnation === summary.incarnation && cached.floorSeq === summary.floorSeq;
      let title = current ? cached.title : undefined;
      if (title === undefined) {
        const found = await webTitle({ store, sessionId: summary.sessionId });
        title = found ?? summary.sessionId;
        // A session without a user message yet may get one: only a found title is final.
        if (found !== undefined)
          titles.set(summary.sessionId, { incarnation: summary.incarnation, floorSeq: summary.floorSeq, title });
        else titles.delete(summary.sessionId);
      }
      return {
        sessionId: summary.sessionId,
        title,
        lastActivity: summary.updatedAt,
        windows: summary.windowCount,
        rows: summary.lastSeq,
        ...lineageOf(summary),
      };
    },
  };
}

export type TitleCache = ReturnType<typeof createTitleCache>;

/**
 * Sessions newest first, filtered by `query`, at most `limit`.
 *
 * @example const sessions = await listSessionEntries({ store, titles, query: "deploy", limit: 50 });
 */
export async function listSessionEntries({
  store,
  titles,
  query = "",
  limit = 50,
  extra = [],
}: {
  store: HistoryStore;
  titles: TitleCache;
  query?: string;
  limit?: number;
  extra?: readonly SessionListEntry[];
}): Promise<SessionListEntry[]> {
  const summaries = await visibleSessions({ store, summaries: await store.sessions() });
  const stored = await Promise.all(summaries.map((summary) => titles.entryOf(summary)));
  const storedIds = new Set(stored.map((entry) => entry.sessionId));
  const all = [...stored, ...extra.filter((entry) => !storedIds.has(entry.sessionId))];
  const needle = foldCase(query.trim());
  const holding = needle.length === 0 ? new Set<string>() : await sessionsHolding({ store, query: query.trim() });
  return all
    .filter(
      (entry) =>
        needle.length === 0 ||
        foldCase(entry.sessionId).includes(needle) ||
        foldCase(entry.title).includes(needle) ||
        holding.has(entry.sessionId),
    )
    .sort((left, right) =>
      left.lastActivity < right.lastActivity ? 1 : left.lastActivity > right.lastActivity ? -1 : 0,
    )
    .slice(0, limit);
}

/** Sessions with at least one item holding `query` (at most `MAX_ITEM_SEARCH_SESSIONS`); none for a query search refuses. */
async function sessionsHolding({ store, query }: { store: HistoryStore; query: string }): Promise<Set<string>> {
  try {
    const page = await store.searchSessions({
      query,
      mode: "literal",
      limit: MAX_ITEM_SEARCH_SESSIONS,
      hitsPerSession: 1,
    });
    return new Set(page.hits.map((hit) => hit.sessionId));
  } catch (error) {
    if (InvalidQueryError.isInstance(error)) return new Set();
    throw error;
  }
}

/** The first user message after the privacy floor, on one line, at most `TITLE_MAX_CHARS`. */
async function webTitle({ store, sessionId }: { store: HistoryStore; sessionId: string }): Promise<string | undefined> {
  const found = await firstUserText({ store, sessionId });
  if (found === undefined) return undefined;
  const text = displayText(found).replace(/\s+/g, " ");
  return text.length <= TITLE_MAX_CHARS ? text : `${text.slice(0, TITLE_MAX_CHARS - 1)}…`;
}
