/**
 * What `ctxwin history` reads: sessions, windows, items, search hits and whole items of one
 * project's store, as plain JSON-ready values. The rules are the `session_history` tool's (same
 * rendering, previews, snippets, hidden rows and privacy floor); only the floor can be lifted,
 * by the person, with `includeCleared` — which also shows the child sessions a clear above them
 * hides (ADR 0073). Unlike the tool, results are not bounded to 16 KiB.
 */
import { ITEM_PREVIEW_CHARS } from "../../core/history-view/limits.js";
import { oneLinePreview } from "../../core/history-view/text-excerpt.js";
import { renderRowText } from "../../core/row-text.js";
import type { SearchFilter, SearchOrder } from "../../core/search-filter.js";
import type { SearchMode } from "../../core/search-query.js";
import { isHistoryVisible } from "../../core/visibility.js";
import { parseItemId, parseWindowId, windowIdFor } from "../../core/windows.js";
import { isVisibleSession } from "../../store/lineage/session-visibility.js";
import { readAllWindows } from "../../store/read-timeline.js";
import { windowEdgeRow } from "../../store/window-edges.js";
import type { EmbeddingSearchMode, HistoryStore, SessionSummary, StoredRow, WindowSummary } from "../../store/port.js";
import { itemFields } from "../../tools/session-history/history-context.js";
import { SessionCatalog } from "../../tools/session-catalog/session-descriptors.js";
import { windowEntryOf } from "../../tools/session-history/list-windows.js";
import type { ItemEntry, ItemFields, SearchHitEntry, WindowEntry } from "../../tools/session-history/results.js";
import { findSnippetHits, searchHitEntry } from "../../tools/session-history/search-hits.js";
import { HistoryCommandError } from "./history-errors.js";

/** Rows read per store call while paging through rows. */
const PAGE_ROWS = 200;

export interface HistoryScope {
  store: HistoryStore;
  sessionId: string;
  /** Seq at or before which nothing is shown (0 with `includeCleared`). */
  floor: number;
  includeCleared: boolean;
}

export interface SessionEntry {
  session_id: string;
  /** The first user message after the privacy floor, as `list_sessions` titles a session (null: none yet). */
  title: string | null;
  last_item: string;
  window_count: number;
  /** Seq of the newest manual reset (`"0"` when none): the privacy floor. */
  floor_item: string;
  created_at: string;
  updated_at: string;
  /**
   * The time of the session's first and last rows after the floor, as `list_sessions` reports
   * them: for an imported session the transcript's own times (ADR 0079), where `created_at` and
   * `updated_at` are the store's.
   */
  started_at: string;
  ended_at: string;
  /** An imported session (ADR 0067): its source session id, git branch and first model when recorded. */
  source_session_id?: string;
  git_branch?: string;
  model?: string;
  /** A sub-agent's session: its parent and the item of the parent's `task` call. */
  parent_session_id?: string;
  parent_item?: string;
  /** A fork: its origin and the last item it shares with it. */
  fork_of?: string;
  fork_at_item?: string;
}

export interface ReadEntry extends ItemFields {
  text: string;
}

/**
 * Every session, titled and dated as `list_sessions` does (the same catalog), newest activity
 * (`ended_at`) first. The catalog leaves out the children a clear above them hides (ADR 0073);
 * `includeCleared` adds them at the end, untitled and dated by their store times.
 *
 * @example const sessions = await listSessions({ store });
 */
export async function listSessions({
  store,
  includeCleared = false,
}: {
  store: HistoryStore;
  includeCleared?: boolean;
}): Promise<SessionEntry[]> {
  const descriptors: Array<{ summary: SessionSummary; title: string | null; startedAt: string; endedAt: string }> =
    await new SessionCatalog({ store }).describe();
  if (includeCleared) {
    const described = new Set(descriptors.map(({ summary }) => summary.sessionId));
    for (const summary of await store.sessions()) {
      if (described.has(summary.sessionId)) continue;
      descriptors.push({ summary, title: null, startedAt: summary.createdAt, endedAt: summary.updatedAt });
    }
  }
  const entries: SessionEntry[] = [];
  for (const { summary: session, title, startedAt, endedAt } of descriptors) {
    entries.push({
      session_id: session.sessionId,
      title,
      last_item: String(session.lastSeq),
      window_count: session.windowCount,
      floor_item: String(session.floorSeq),
      created_at: session.createdAt,
      updated_at: session.updatedAt,
      started_at: startedAt,
      ended_at: endedAt,
      ...(await importedFacts(store, session)),
      ...(session.parent === undefined
        ? {}
        : { parent_session_id: session.parent.sessionId, parent_item: session.parent.itemId }),
      ...(session.forkOf === undefined
        ? {}
        : { fork_of: session.forkOf.sessionId, fork_at_item: String(session.forkOf.atSeq) }),
    });
  }
  return entries;
}

/**
 * An imported session's facts from its hidden first row (the importer's header), or nothing.
 */
async function importedFacts(store: HistoryStore, session: SessionSummary): Promise<Partial<SessionEntry>> {
  if (session.forkOf !== undefined) return {};
  const first = await store.read(session.sessionId, 1, { includeCleared: true });
  const meta = first?.meta;
  if (first === undefined || meta?.type !== "imported-session" || first.synthetic !== true) return {};
  const text = (key: string) => (typeof meta[key] === "string" && meta[key] !== "" ? (meta[key] as string) : undefined);
  const facts: Partial<SessionEntry> = {};
  const sourceSessionId = text("sourceSessionId");
  if (sourceSessionId !== undefined) facts.source_session_id = sourceSessionId;
  const gitBranch = text("gitBranch");
  if (gitBranch !== undefined) facts.git_branch = gitBranch;
  const model = text("model");
  if (model !== undefined) facts.model = model;
  return facts;
}

/**
 * The scope of one session; an unknown session is a HistoryCommandError, and so is a child a clear
 * above it hides (ADR 0073) unless `includeCleared`.
 *
 * @example const scope = await openScope({ store, sessionId: "s1", includeCleared: false });
 */
export async function openScope({
  store,
  sessionId,
  includeCleared = false,
}: {
  store: HistoryStore;
  sessionId: string;
  includeCleared?: boolean;
}): Promise<HistoryScope> {
  const summary = await store.session(sessionId);
  if (summary === undefined)
    throw new HistoryCommandError(
      `Unknown session '${sessionId}': \`ctxwin history sessions\` lists the sessions of this project.`,
    );
  if (!includeCleared && !(await isVisibleSession({ store, summary }))) throw hiddenSession(sessionId);
  return { store, sessionId, floor: includeCleared ? 0 : summary.floorSeq, includeCleared };
}

/**
 * A child session a clear above it hides: the person may still look, explicitly.
 *
 * @example throw hiddenSession("main/child")
 */
export function hiddenSession(sessionId: string): HistoryCommandError {
  return new HistoryCommandError(
    `Session '${sessionId}' started at or before a manual reset of a session above it, so it is hidden; ` +
      "add --include-cleared to show it.",
  );
}

/** A row these commands may show: after the floor and visible to history. */
export function isShown(scope: HistoryScope, row: StoredRow): boolean {
  return row.sessionId === scope.sessionId && row.seq > scope.floor && isHistoryVisible(row);
}

/**
 * Every shown window, oldest first.
 *
 * @example const windows = await allWindows(scope);
 */
export async function allWindows(scope: HistoryScope): Promise<WindowSummary[]> {
  const { store, sessionId, includeCleared } = scope;
  const windows = await readAllWindows({ store, sessionId, includeCleared });
  return windows.filter((window) => window.boundarySeq >= scope.floor);
}

/**
 * Every shown window, oldest first, with its first item's preview. Counts come from the store's
 * window summaries and only the edges of each window are read, so the cost follows the number of
 * windows, not the length of the history.
 *
 * @example const entries = await listWindowEntries(scope);
 */
export async function listWindowEntries(scope: HistoryScope): Promise<WindowEntry[]> {
  const entries: WindowEntry[] = [];
  for (const window of await allWindows(scope)) {
    const first = await edgeRow(scope, window, "first");
    const last = first === undefined ? undefined : await edgeRow(scope, window, "last");
    entries.push(windowEntryOf({ window, first, last }));
  }
  return entries;
}

/** The first or last shown row of a window, reading pages from that edge inward. */
function edgeRow(scope: HistoryScope, window: WindowSummary, edge: "first" | "last"): Promise<StoredRow | undefined> {
  return windowEdgeRow({
    store: scope.store,
    sessionId: scope.sessionId,
    window,
    edge,
    accept: (row) => isShown(scope, row),
    includeCleared: scope.includeCleared,
  });
}

/**
 * The window a window id names, checked against the shown windows.
 *
 * @example const window = await resolveWindow(scope, "w:8");
 */
export async function resolveWindow(scope: HistoryScope, windowId: string): Promise<WindowSummary> {
  const boundarySeq = parseWindowId(windowId);
  if (boundarySeq === undefined)
    throw new HistoryCommandError(
      `Malformed window id '${windowId}': expected an id such as w:0 or w:120, as \`ctxwin history windows\` shows them.`,
    );
  const window = (await allWindows(scope)).find((candidate) => candidate.boundarySeq === boundarySeq);
  if (window === undefined) {
    throw new HistoryCommandError(
      `Window ${windowId} is not available in session '${scope.sessionId}': it does not exist, ` +
        "or it lies before a manual reset (--include-cleared shows cleared history).",
    );
  }
  return window;
}

/** Rows of one window in seq order; only shown rows unless `all` is set (hidden rows too, still after the floor). */
export async function windowRows(
  scope: HistoryScope,
  windowId: string,
  { all = false }: { all?: boolean } = {},
): Promise<StoredRow[]> {
  const rows: StoredRow[] = [];
  for await (const row of scopeRows(scope, { windowId, all })) rows.push(row);
  return rows;
}

/**
 * Rows after the floor in seq order, of one window or of the whole session, read page by page;
 * only shown rows unless `all` is set (hidden and boundary rows too, still after the floor).
 *
 * @example for await (const row of scopeRows(scope, { all: true })) write(JSON.stringify(row));
 */
export async function* scopeRows(
  scope: HistoryScope,
  { windowId, all = false }: { windowId?: string; all?: boolean } = {},
): AsyncGenerator<StoredRow> {
  let afterSeq = scope.floor;
  for (;;) {
    const page = await scope.store.items(scope.sessionId, {
      ...(windowId === undefined ? {} : { windowId }),
      afterSeq,
      limit: PAGE_ROWS,
      includeCleared: scope.includeCleared,
    });
    for (const row of page.rows) {
      if (row.seq > scope.floor && (all || isShown(scope, row))) yield row;
    }
    const last = page.rows.at(-1);
    if (!page.hasMore || last === undefined) return;
    afterSeq = last.seq;
  }
}

/**
 * Every shown item of a window, oldest first, with a one-line preview.
 *
 * @example const items = await listItemEntries(scope, "w:8");
 */
export async function listItemEntries(scope: HistoryScope, windowId: string): Promise<ItemEntry[]> {
  const window = await resolveWindow(scope, windowId);
  const rows = await windowRows(scope, window.windowId);
  return rows.map((row) => ({
    ...itemFields({ row, windowId: window.windowId, text: renderRowText(row) }),
    preview: oneLinePreview({
      text: renderRowText(row, { maxValueChars: ITEM_PREVIEW_CHARS }),
      maxChars: ITEM_PREVIEW_CHARS,
    }),
  }));
}

/**
 * Search hits with a verbatim snippet: literal newest first, ranked most relevant (or newest)
 * first, only of a role or calling a tool when `filter` says so.
 *
 * @example const hits = await searchEntries(scope, { query: "orders", mode: "literal", limit: 20 });
 */
export async function searchEntries(
  scope: HistoryScope,
  {
    query,
    mode,
    limit,
    filter = {},
    order,
    onNote,
  }: {
    query: string;
    mode: SearchMode | EmbeddingSearchMode;
    limit: number;
    filter?: SearchFilter;
    order?: SearchOrder;
    onNote?: (note: string) => void;
  },
): Promise<SearchHitEntry[]> {
  const narrowing = { filter, ...(order === undefined ? {} : { order }) };
  const result = await findSnippetHits({
    store: scope.store,
    sessionId: scope.sessionId,
    query,
    mode,
    limit,
    includeCleared: scope.includeCleared,
    ...narrowing,
  });
  if (result.status === "invalid-query") throw new HistoryCommandError(result.message);
  if (result.note !== undefined) onNote?.(result.note);
  return result.hits.map(searchHitEntry);
}

/**
 * One item's full rendered text.
 *
 * @example const entry = await readEntry(scope, "9");
 */
export async function readEntry(scope: HistoryScope, itemId: string): Promise<ReadEntry> {
  const seq = parseItemId(itemId);
  if (seq === undefined)
    throw new HistoryCommandError(
      `Malformed item id '${itemId}': expected a positive whole number such as 42, as \`ctxwin history items\` shows them.`,
    );
  const row = await scope.store.read(scope.sessionId, seq, { includeCleared: scope.includeCleared });
  if (row === undefined || !isShown(scope, row)) {
    throw new HistoryCommandError(
      `Item ${seq} is not available in session '${scope.sessionId}': it does not exist, ` +
        "is not part of the readable transcript, or lies at or before a manual reset " +
        "(--include-cleared shows cleared history).",
    );
  }
  const page = await scope.store.windows(scope.sessionId, {
    beforeWindow: windowIdFor(seq + 1),
    limit: 1,
    includeCleared: scope.includeCleared,
  });
  const windowId = page.windows[0]?.windowId ?? windowIdFor(0);
  const text = renderRowText(row);
  return { ...itemFields({ row, windowId, text }), text };
}
