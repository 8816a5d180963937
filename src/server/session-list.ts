/**
 * The sessions list of the web UI: newest activity first, each with a title (its first user
 * message, at most 80 characters, or the id), filtered by a case-insensitive substring of id or
 * title. Titles are cached per session incarnation: the first user message never changes.
 */
import { renderRowText } from "../core/row-text.js";
import { foldCase } from "../core/search-query.js";
import type { HistoryStore, SessionSummary } from "../store/port.js";

export const TITLE_MAX_CHARS = 80;
/** Rows looked at from a session's start to find its first user message. */
const TITLE_SCAN_ROWS = 50;

export interface SessionListEntry {
  sessionId: string;
  title: string;
  lastActivity: string;
  windows: number;
  rows: number;
}

/**
 * @example
 * const titles = createTitleCache({ store });
 * const entry = await titles.entryOf(summary);
 */
export function createTitleCache({ store }: { store: HistoryStore }) {
  const titles = new Map<string, { incarnation: string; title: string }>();
  return {
    async entryOf(summary: SessionSummary): Promise<SessionListEntry> {
      const cached = titles.get(summary.sessionId);
      let title = cached !== undefined && cached.incarnation === summary.incarnation ? cached.title : undefined;
      if (title === undefined) {
        const found = await firstUserText({ store, sessionId: summary.sessionId });
        title = found ?? summary.sessionId;
        // A session without a user message yet may get one: only a found title is final.
        if (found !== undefined) titles.set(summary.sessionId, { incarnation: summary.incarnation, title });
      }
      return { sessionId: summary.sessionId, title, lastActivity: summary.updatedAt, windows: summary.windowCount, rows: summary.lastSeq };
    },
  };
}

export type TitleCache = ReturnType<typeof createTitleCache>;

/**
 * Sessions newest first, filtered by `query`, at most `limit`.
 *
 * @example const sessions = await listSessionEntries({ store, titles, query: "deploy", limit: 50 });
 */
export async function listSessionEntries({ store, titles, query = "", limit = 50, extra = [] }: { store: HistoryStore; titles: TitleCache; query?: string; limit?: number; extra?: readonly SessionListEntry[] }): Promise<SessionListEntry[]> {
  const summaries = await store.sessions();
  const stored = await Promise.all(summaries.map((summary) => titles.entryOf(summary)));
  const storedIds = new Set(stored.map((entry) => entry.sessionId));
  const all = [...stored, ...extra.filter((entry) => !storedIds.has(entry.sessionId))];
  const needle = foldCase(query.trim());
  return all
    .filter((entry) => needle.length === 0 || foldCase(entry.sessionId).includes(needle) || foldCase(entry.title).includes(needle))
    .sort((left, right) => (left.lastActivity < right.lastActivity ? 1 : left.lastActivity > right.lastActivity ? -1 : 0))
    .slice(0, limit);
}

async function firstUserText({ store, sessionId }: { store: HistoryStore; sessionId: string }): Promise<string | undefined> {
  const page = await store.items(sessionId, { afterSeq: 0, limit: TITLE_SCAN_ROWS, includeCleared: true });
  for (const row of page.rows) {
    if (row.role !== "user" || row.synthetic === true || row.meta !== undefined) continue;
    const text = renderRowText(row).replace(/\s+/g, " ").trim();
    if (text.length === 0) continue;
    return text.length <= TITLE_MAX_CHARS ? text : `${text.slice(0, TITLE_MAX_CHARS - 1)}…`;
  }
  return undefined;
}
