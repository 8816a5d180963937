/**
 * The shapes the `ctxwin serve` HTTP API answers with (docs/web-api.md): one statement of the
 * contract, on the server's side. The server's views are typed by it, and the web UI imports it
 * (web/src/api/types.ts, types only, erased from the bundle). The web UI's typecheck runs without
 * Node's types and reads every file an import here reaches: this file imports types only, from
 * modules that use no Node API. The eval view's shapes are in eval-view-types.ts.
 */
import type { Spend } from "../core/budget/step-spend.js";
import type { MatchSpan } from "../core/history-view/text-excerpt.js";
import type { CallOutcome } from "../core/rollover/turn-ledger.js";
import type { SearchMode } from "../core/search-query.js";
import type { Timeline, TimelineWindow } from "../core/timeline/timeline-types.js";
import type { EmbeddingSearchMode, SearchEmbeddingsNote, SessionParent } from "../store/port.js";

export type { CallOutcome, SearchEmbeddingsNote, Spend };
export type {
  TimelineLines,
  TimelineMark,
  TimelineMarkKind,
  TimelinePoint,
  TimelineWindow,
} from "../core/timeline/timeline-types.js";

// ---- Transcript rows (`GET /api/sessions/:id/rows`)

export type RowKind = "message" | "tool" | "boundary" | "warning" | "notes-flush" | "internal" | "rejected-input";

export type PartView =
  | { type: "text"; text: string }
  | {
      type: "tool";
      toolName: string;
      state: string;
      outcome: CallOutcome;
      input: string;
      output: string;
      /** The sub-agent session this call started (ADR 0060). */
      childSessionId?: string;
    }
  | { type: "file"; mediaType: string; filename?: string }
  | { type: "other"; label: string };

/** What a `continue` row carried into its window (docs/adr/0023, 0050): `meta.carry`, as records. */
export interface CarryView {
  /** The stopped turn's user input, by item id (its text is in the row's `text`). */
  input?: { itemId: string; windowId: string; truncated: boolean };
  /** Each call of the turn in order; `session_history` calls carry only their action. */
  calls: Array<{ itemId: string; toolName: string; input: string; outcome: CallOutcome; detail?: string }>;
  omittedCalls: number;
}

/**
 * Why a `rejected-input` row was not sent (ADR 0069): the reason as stored, the estimate against
 * the ceiling, and `cut` when the row itself had to be cut to the store's row limit.
 */
export interface RejectedView {
  reason?: string;
  estimatedTokens?: number;
  hardCeiling?: number;
  /**
   * The stored text is a beginning of the input: `keptChars` of `totalChars`; `droppedFiles` file
   * parts became a line naming them.
   */
  cut?: { totalChars: number; keptChars: number; droppedFiles: number };
}

export type BoundaryViewKind = "rollover" | "compaction" | "reset";

export interface BoundaryView {
  kind: BoundaryViewKind;
  reason?: string;
  percent?: number;
  contextTokens?: number;
  maxTokens?: number;
}

export interface RowView {
  seq: number;
  itemId: string;
  windowId: string;
  windowNumber: number;
  role: string;
  createdAt: string;
  kind: RowKind;
  hidden: boolean;
  text: string;
  truncated: boolean;
  parts: PartView[];
  boundary?: BoundaryView;
  /** A `continue` row that carries a stopped turn. */
  carry?: CarryView;
  /** A `rejected-input` row: why it was not sent, and what of it is missing when it was cut. */
  rejected?: RejectedView;
}

/** A page of the transcript. */
export interface TranscriptPage {
  /** Ascending seq. */
  rows: RowView[];
  hasMoreBefore: boolean;
  hasMoreAfter: boolean;
}

// ---- Windows and budget (`GET /api/sessions/:id/windows`, `…/usage`)

/** One context window for the windows panel. */
export interface WindowView {
  windowId: string;
  number: number;
  kind: "initial" | BoundaryViewKind;
  firstSeq: number;
  lastSeq: number;
  /** Rows stored in the window (boundary, hidden and internal rows included). */
  items: number;
  startedAt: string;
  reason?: string;
  percent?: number;
}

/** The active window's budget as the web UI's bar shows it. */
export interface UsageView {
  windowId: string;
  contextTokens: number;
  contextLimit: number | null;
  threshold: number | null;
  hardCeiling: number | null;
  percent: number | null;
  thresholdPercent: number | null;
  tokensUntilRollover: number | null;
  /**
   * What the window's requests spent: input, the part read from the provider's cache, estimated cost
   * (`null` while a turn streams).
   */
  spend: Spend | null;
  /** The model whose context limit the figures are measured against, when known (ADR 0080). */
  model: string | null;
  /**
   * `session`: the session's own model (its rows name it, or the server's agent runs it);
   * `server`: the session names no model, so the server's model stands in; `null`: no model known.
   */
  modelSource: "session" | "server" | null;
}

// ---- Sessions (`GET /api/sessions`, `GET /api/sessions/:id`)

/** A fork's origin as the API names it: by item id, like every other position. */
export interface ForkOriginView {
  sessionId: string;
  atItem: string;
}

export interface SessionListEntry {
  sessionId: string;
  title: string;
  lastActivity: string;
  windows: number;
  rows: number;
  /** A sub-agent's session: its parent and the item id of the `task` call that started it (ADR 0060). */
  parent: SessionParent | null;
  /** A fork: its origin and the last item it shares with it (ADR 0059). */
  forkOf: ForkOriginView | null;
}

/** One session: its entry, its last seq, its budget and whether a turn runs. */
export interface SessionDetail extends Omit<SessionListEntry, "lastActivity"> {
  /** `null` for a session created for chatting that has no rows yet. */
  lastActivity: string | null;
  lastSeq: number;
  usage: UsageView;
  busy: boolean;
}

// ---- Search (`GET /api/sessions/:id/search`)

/** The search modes of the API; `hybrid` and `semantic` need an embedding model (ADR 0063). */
export type ApiSearchMode = SearchMode | EmbeddingSearchMode;

export interface SearchHitView {
  itemId: string;
  seq: number;
  windowId: string;
  windowNumber: number;
  role: string;
  snippet: string;
  /**
   * Where the snippet holds what the query matched, in order (the words ranked search counted); none
   * for `semantic`.
   */
  matches: MatchSpan[];
}

export interface SearchResultView {
  hits: SearchHitView[];
  /** Set for `hybrid` and `semantic`: the store's `SearchPage.embeddings`. */
  embeddings?: SearchEmbeddingsNote;
}

// ---- The server (`GET /api/info`) and its settings (`GET`/`PUT /api/settings`)

export interface InfoView {
  version: string;
  dir: string;
  chat: { available: boolean; model: string | null; demo: boolean };
  /** Whether `ctxwin serve --eval` loaded a results file (the Eval view). */
  eval: { loaded: boolean; file: string | null };
  /** The search modes the server answers. */
  search: { modes: ApiSearchMode[]; embeddingModel: string | null };
}

export type Strategy = "rollover" | "compact" | "off";

export interface SettingsView {
  strategy: Strategy;
  threshold: number;
  contextLimit: number | null;
  /** The settings file the values are read from and written to. */
  path: string;
  explanations: { strategy: string; threshold: string; contextLimit: string };
}

// ---- The context timeline (`GET /api/sessions/:id/timeline`)

/** One window as the overview strip draws it: a bar as high as `tokens` against `limit`. */
export interface TimelineOverviewBar {
  windowId: string;
  number: number;
  kind: TimelineWindow["kind"];
  limit: number | null;
  /** The window's largest request when it was read row by row, else the figure it rolled over at. */
  tokens: number | null;
}

/**
 * The windows read row by row in full, every window of the session as an overview bar, and which
 * windows were read, for the UI's paging.
 */
export interface TimelineView extends Timeline {
  /** Only the windows read row by row (`detailWindowIds`), oldest first. */
  windows: TimelineWindow[];
  /** Every window of the session, oldest first. */
  overview: TimelineOverviewBar[];
  /** The window ids read row by row, oldest first. */
  detailWindowIds: string[];
}

// ---- Server-sent events (`GET /api/sessions/:id/events`)

/** Each event's data, by event name. */
export interface ServerEventMap {
  "turn-start": Record<string, never>;
  "text-delta": { delta: string };
  "step-end": { seq: number };
  usage: UsageView;
  "budget-warning": Record<string, never>;
  rollover: { windowId: string; reason: string; percent: number | null };
  blocked: { reason: string };
  error: { message: string };
  /** A step cut by a provider failure is requested again; its last `discardedChars` streamed characters are dropped. */
  retry: { message: string; retry: number; discardedChars: number };
  "turn-end": { status: string; text: string };
  rows: { lastSeq: number };
}

export type ServerEventName = keyof ServerEventMap;

// ---- The web chat (`POST /api/sessions/:id/chat`, ADR 0057): ctxwin's data parts of a `useChat` message

export type { CtxwinDataTypes } from "../session/ui-data-parts.js";
