/**
 * The HistoryStore port (docs/design.md §4): one narrow interface, atomic by contract, that every
 * backend implements and the shared conformance suite checks.
 */
import type { Row, RowInput, RowRole } from "../core/row.js";
import type { SearchOrder } from "../core/search-filter.js";
import type { SearchMode } from "../core/search-query.js";
import type { WindowKind } from "../core/windows.js";

export type StoredRow = Row;

export interface AppendOptions {
  /** A retry with an `operationId` seen before returns the first result and writes nothing. */
  operationId?: string;
  /** Refuse the write (AppendConflictError) unless the session's last seq is exactly this. */
  expectLastSeq?: number;
  /**
   * The session's parent (a sub-agent's session: the parent session and the item id of its
   * `task` call). Recorded when this append creates the session; an existing session keeps its own.
   */
  parent?: SessionParent;
}

/** Who started a child session: the parent session and the item id of the `task` call. */
export interface SessionParent {
  sessionId: string;
  itemId: string;
}

/** What `attachParent` did: recorded the parent, or found this very parent recorded already. */
export type AttachParentResult = "attached" | "unchanged";

/** Where a fork starts: its origin session and the last seq it shares with it. */
export interface ForkOrigin {
  sessionId: string;
  atSeq: number;
}

export interface ForkOptions {
  /** The last seq of the origin the fork shares; the fork's own rows start at `atSeq + 1`. */
  atSeq: number;
  /** The new session's id; it must not exist yet. */
  newSessionId: string;
}

/** Filters of `sessions()`; without them every session is listed. */
export interface SessionsOptions {
  /** Only the children of this session (sessions whose parent it is). */
  parentSessionId?: string;
  /** Only the forks of this session. */
  forkOfSessionId?: string;
}

/** Read options shared by the history views. */
export interface FloorOptions {
  /**
   * Include rows at or before the newest manual reset (the privacy floor). Off by default:
   * only a person asking explicitly (e.g. `--include-cleared`) should turn it on.
   */
  includeCleared?: boolean;
}

export interface ActiveWindow {
  windowId: string;
  /** Seq of the boundary that opened the window (0 for the first window). */
  boundarySeq: number;
  kind: WindowKind;
  /** Every row of the window, in seq order, including hidden and internal rows. */
  rows: StoredRow[];
  /** Rows of the window skipped because their stored JSON is corrupt. */
  skipped: number;
  /** Last seq of the session (0 when it has no rows). */
  lastSeq: number;
}

export interface WindowSummary {
  windowId: string;
  boundarySeq: number;
  kind: WindowKind;
  /** Rollover reason, for windows opened by a rollover. */
  reason?: string;
  rolloverId?: string;
  /**
   * For windows opened by a rollover: the boundary's `contextTokens` and `maxTokens` (how full
   * the previous window was, against which limit), so views need not read the boundary row.
   */
  contextTokens?: number;
  maxTokens?: number;
  firstSeq: number;
  lastSeq: number;
  rowCount: number;
  /** Rows `session_history` may show (not hidden, not rejected, not a boundary marker). */
  visibleCount: number;
  startedAt: string;
  endedAt: string;
  active: boolean;
}

export interface WindowsOptions extends FloorOptions {
  /** At most this many windows, newest first (default 50). */
  limit?: number;
  /** Only windows older than this window id. */
  beforeWindow?: string;
}

export interface WindowPage {
  windows: WindowSummary[];
  hasMore: boolean;
}

export interface ItemsOptions extends FloorOptions {
  /** Restrict to one window. */
  windowId?: string;
  /** Rows with seq greater than this, oldest first. */
  afterSeq?: number;
  /** Rows with seq less than this; without `afterSeq`, the newest such rows are returned. */
  beforeSeq?: number;
  /** At most this many rows (default 50). */
  limit?: number;
}

export interface ItemPage {
  /** Rows in seq order. */
  rows: StoredRow[];
  /** More rows exist past the page in its reading direction. */
  hasMore: boolean;
  /** Rows of the page skipped because their stored JSON is corrupt. */
  skipped: number;
}

/**
 * Search modes that use an embedding model (ADR 0063): `hybrid` fuses BM25 and vector
 * similarity, `semantic` ranks by vector similarity alone. A store opened without
 * `embeddings` answers them with ranked word search and says so in `SearchPage.embeddings`.
 */
export type EmbeddingSearchMode = "hybrid" | "semantic";

export interface SearchOptions extends FloorOptions {
  query: string;
  mode: SearchMode | EmbeddingSearchMode;
  windowId?: string;
  /** Only rows with seq less than this. */
  beforeSeq?: number;
  /** At most this many hits (default 10). */
  limit?: number;
  /** Skip this many hits first (paging of ranked results). */
  offset?: number;
  /** Only rows of this role (ADR 0033). */
  role?: RowRole;
  /** Only rows holding a call of this tool, compared case-insensitively (ADR 0033). */
  toolName?: string;
  /**
   * Ranked: `relevance` (default) or `newest` first, over the same rows. Literal results are
   * always newest first; `relevance` is refused for them.
   */
  order?: SearchOrder;
}

export interface SearchHit {
  row: StoredRow;
  windowId: string;
}

export interface SearchPage {
  /** Literal: newest first. Ranked: most relevant first, or newest first with `order: "newest"`. */
  hits: SearchHit[];
  hasMore: boolean;
  /**
   * Set when a literal search stopped after reading `LITERAL_SCAN_LIMIT` candidate rows without
   * filling its page (ADR 0033, 0051): the page may hold fewer hits than `limit`, even none; search
   * again with `beforeSeq: resumeBeforeSeq` to continue below the rows it read.
   */
  resumeBeforeSeq?: number;
  /** Set for `hybrid` and `semantic` searches: whether vectors took part, and what they missed. */
  embeddings?: SearchEmbeddingsNote;
}

/** How a `hybrid` or `semantic` search used the embedding model (ADR 0063). */
export interface SearchEmbeddingsNote {
  /** `used`: vectors took part in the ranking; `unavailable`: ranked word search alone, see `message`. */
  status: "used" | "unavailable";
  /** The embedding model's id (`provider:modelId`), when one is configured. */
  model?: string;
  dimensions?: number;
  /** Rows of the searched range not embedded yet: only word search can find them. */
  pendingRows: number;
  /** What a reader should know (why vectors were not used, rows still pending). */
  message?: string;
}

/**
 * A search across the sessions of a store (ADR 0089): one query over the store's indexes, with each
 * session's privacy floor, hidden rows, lineage (a fork's rows up to its fork point are its
 * origin's, ADR 0059) and sub-agent visibility (ADR 0073) applied inside it.
 */
export interface CrossSearchOptions {
  query: string;
  /**
   * `hybrid` (ADR 0105): ranked's one query fused (RRF) with the rows nearest by meaning in the same
   * scope, on a store opened with an embedding model; ranked word search alone, saying so, without one.
   */
  mode: SearchMode | "hybrid";
  /** At most this many hits in all (default 10, at most 50). */
  limit?: number;
  /** Skip this many hits first (the previous page's `nextOffset`): pages go by hit, not by session. */
  offset?: number;
  /** At most this many hits of one session (default 3); the page names the sessions that have more. */
  hitsPerSession?: number;
  /** Only these sessions (a caller's own filter, e.g. by project); without it, every visible session. */
  sessionIds?: readonly string[];
  /** Only rows of this role (ADR 0033), inside the one query (ADR 0093). */
  role?: RowRole;
  /** Only rows holding a call of this tool, compared case-insensitively (ADR 0033, 0093). */
  toolName?: string;
  /**
   * Ranked: `relevance` (default, one BM25 over all sessions) or `newest` (the literal order: sessions
   * by newest activity, each session's newest first), over the same rows. Literal is always `newest`.
   */
  order?: SearchOrder;
}

/** A hit of a cross-session search: the session it is shown under (a fork shows its origin's rows as its own). */
export interface CrossSearchHit extends SearchHit {
  sessionId: string;
}

export interface CrossSearchPage {
  /**
   * Literal (and ranked with `order: "newest"`): sessions by newest activity first, each session's
   * hits newest first. Ranked: by BM25 over all sessions, most relevant first. At most
   * `hitsPerSession` hits of one session.
   */
  hits: CrossSearchHit[];
  /** Sessions with more hits than the page shows of them: search the session itself to see them. */
  moreInSession: string[];
  hasMore: boolean;
  /** The offset of the next page, when `hasMore`. */
  nextOffset?: number;
  /**
   * Set when the query matched more rows than one call reads (`CROSS_SEARCH_SCAN_LIMIT`): the hits come
   * from the newest rows written; a more precise query finds the rest.
   */
  partial?: boolean;
  /** Sessions the search looked into (visible, and in `sessionIds` when given). */
  sessionsSearched: number;
  /** Hybrid: whether vectors took part, and the rows of the searched sessions not embedded yet (ADR 0105). */
  embeddings?: SearchEmbeddingsNote;
}

/**
 * The vector half of a hybrid search across sessions (ADR 0105): what the embedding layer hands
 * the one query, which asks it once, with the scope it worked out (each session's segments).
 */
export interface CrossSearchVectors {
  /**
   * The stored rows nearest to the query among `segments` (by the id of the session storing the
   * rows: its rows with `low < seq <= high`), most similar first, at most `limit`. `lastSeqs`: each
   * storing session's last seq in the same snapshot, where the backend read it (for the pending rows).
   */
  nearest(
    segments: ReadonlyMap<string, readonly { low: number; high: number }[]>,
    limit: number,
    lastSeqs: ReadonlyMap<string, number>,
  ): Promise<readonly { sessionId: string; seq: number }[]>;
}

export interface SessionSummary {
  sessionId: string;
  /**
   * A new value each time the session is created, including after `deleteSession` and a new
   * first append: caches keyed by seq compare it to know their rows are still the same rows.
   */
  incarnation: string;
  lastSeq: number;
  /** Seq of the newest manual reset (0 when none). */
  floorSeq: number;
  windowCount: number;
  createdAt: string;
  updatedAt: string;
  /** Set for a child session (a sub-agent's). */
  parent?: SessionParent;
  /** Set for a fork: its rows up to `atSeq` are its origin's (ADR 0059). */
  forkOf?: ForkOrigin;
}

/** A problem the store worked around without failing the call. */
export interface StoreWarning {
  code: "corrupt-row" | "newer-row-format";
  sessionId: string;
  seq: number;
  message: string;
}

/**
 * @example
 * const store = openStore({ path: ".ctxwin/ctxwin.db" });
 * const [row] = await store.append("s1", [{ role: "user", parts: [{ type: "text", text: "hi" }] }]);
 * const { rows } = await store.activeWindow("s1");
 */
export interface HistoryStore {
  readonly backend: "sqlite" | "memory" | "postgres";
  /** All rows of one call commit together or not at all; returns the stored rows. */
  append(sessionId: string, rows: readonly RowInput[], options?: AppendOptions): Promise<StoredRow[]>;
  /** The last window; cost follows the window, not the history. */
  activeWindow(sessionId: string): Promise<ActiveWindow>;
  windows(sessionId: string, options?: WindowsOptions): Promise<WindowPage>;
  items(sessionId: string, options?: ItemsOptions): Promise<ItemPage>;
  /** One row, or `undefined` when unknown, corrupt, or at/before the privacy floor. */
  read(sessionId: string, seq: number, options?: FloorOptions): Promise<StoredRow | undefined>;
  /**
   * The rows of `seqs` with their window ids, in the order asked, in one read (hybrid search loads
   * its vector hits with it); seqs unknown, corrupt or at/before the privacy floor are left out.
   */
  readHits(sessionId: string, seqs: readonly number[], options?: FloorOptions): Promise<SearchHit[]>;
  search(sessionId: string, options: SearchOptions): Promise<SearchPage>;
  /**
   * One search across every visible session (ADR 0089); `searchSessions({ query, mode: "literal" })`.
   * `vectors`: the embedding layer's half of a `hybrid` search (ADR 0105); callers leave it out.
   */
  searchSessions(options: CrossSearchOptions, vectors?: CrossSearchVectors): Promise<CrossSearchPage>;
  /** Seq of the session's newest row (0 when it has none). */
  lastSeq(sessionId: string): Promise<number>;
  /** Seq of the newest manual reset boundary (0 when none). */
  privacyFloor(sessionId: string): Promise<number>;
  sessions(options?: SessionsOptions): Promise<SessionSummary[]>;
  /** One session's summary, or `undefined` when it has no rows. */
  session(sessionId: string): Promise<SessionSummary | undefined>;
  /**
   * A new session sharing `sessionId`'s history up to `atSeq` without copying it (ADR 0059), with the
   * privacy floor, windows and boundaries as they were at `atSeq`. Refused (`ForkRefusedError`,
   * nothing written) for an unknown session or seq, a seq at or behind the privacy floor, or an
   * existing `newSessionId`.
   */
  fork(sessionId: string, options: ForkOptions): Promise<SessionSummary>;
  /**
   * Records the parent of an existing session created without one (ADR 0067, amended: a
   * sub-agent imported before its parent), atomically and once. `"unchanged"` when the session
   * already has this parent. Refused (`AttachParentRefusedError`, nothing written) for an unknown
   * session or parent, a fork, a session with another parent, a cycle, or a chain of parents
   * deeper than `MAX_LINEAGE_DEPTH`. A read-only store throws `StoreReadOnlyError`.
   */
  attachParent(sessionId: string, parent: SessionParent): Promise<AttachParentResult>;
  /** Removes a session and its index entries; `false` when it did not exist. Refused while it has forks. */
  deleteSession(sessionId: string): Promise<boolean>;
  /** Counters of problems worked around since the store was opened. */
  diagnostics(): StoreDiagnostics;
  /** Set when the store was opened with `embeddings` (ADR 0063): the background embedder. */
  readonly embeddings?: EmbeddingsControl;
  close(): Promise<void>;
}

export interface StoreDiagnostics {
  corruptRowsSkipped: number;
  /** Set when the store was opened with `embeddings`. */
  embeddings?: EmbeddingDiagnostics;
}

/** What the background embedder did since the store was opened (ADR 0063). */
export interface EmbeddingDiagnostics {
  model: string;
  /** Learned from the provider's first answer (or the stored vectors). */
  dimensions: number | undefined;
  /** `sqlite-vec` (the extension), `sqlite-js` (vectors in SQLite, scored in JavaScript), `memory`, `pgvector` (PostgreSQL). */
  index: "sqlite-vec" | "sqlite-js" | "memory" | "pgvector";
  embeddedRows: number;
  providerCalls: number;
  /** Failed provider calls (each retried with backoff), and the last failure's message. */
  failures: number;
  lastError?: string;
  /**
   * The model's last failure as stored beside the vectors (also one another process recorded), until
   * a batch is embedded again: what `ctxwin doctor` shows.
   */
  lastFailure?: EmbeddingFailure;
  /** Sessions waiting for the embedder. */
  queuedSessions: number;
  /** SQLite: bytes of sign bits held in memory for searches (at most 128 MiB per store; ADR 0063 "Later"). */
  cacheBytes?: number;
}

/** An embedding model's last failure, kept in the store (ADR 0063, amended 2026-12-06). */
export interface EmbeddingFailure {
  message: string;
  /** ISO 8601 time of the failure. */
  at: string;
  /** Provider calls that failed in a row, this one included. */
  consecutive: number;
}

/** The background embedder of a store opened with `embeddings` (ADR 0063). */
export interface EmbeddingsControl {
  /** `provider:modelId` of the configured model. */
  readonly model: string;
  /** Resolves when every queued session has been embedded (or has given up until the next append). */
  idle(): Promise<void>;
  /**
   * Embeds every row not embedded yet with this model, session by session, and resolves with the
   * counts; resumable (progress is stored with the vectors) and idempotent. Throws
   * `EmbeddingProviderError` when the provider keeps failing.
   */
  backfill(options?: {
    sessionIds?: readonly string[];
    onProgress?: (progress: EmbeddingProgress) => void;
  }): Promise<EmbeddingProgress>;
  /** Rows of `sessionId` not embedded with this model yet. */
  pendingRows(sessionId: string): Promise<number>;
}

export interface EmbeddingProgress {
  sessions: number;
  sessionsDone: number;
  /** Rows embedded by this call. */
  embeddedRows: number;
  /** Rows still to embed (an estimate from each session's last seq). */
  pendingRows: number;
}
