/**
 * The shapes of the `ctxwin serve` HTTP API, as the front end reads them (the contract both sides
 * code against; see docs/web-ui.md).
 */

export type RowKind = "message" | "tool" | "boundary" | "warning" | "notes-flush" | "internal" | "rejected-input";

export type RowPart =
  | { type: "text"; text: string }
  | {
      type: "tool";
      toolName: string;
      state: string;
      outcome: CallOutcome;
      input: string;
      output: string;
      /** The sub-agent session this call started. */ childSessionId?: string;
    }
  | { type: "file"; mediaType: string; filename?: string }
  | { type: "other"; label: string };

/** What became of a tool call: it ran (`finished`, `failed`: it threw) or it never executed (`not-run`). */
export type CallOutcome = "finished" | "failed" | "not-run";

/** What a `continue` row carried into its window: the stopped turn's input and each of its tool calls. */
export interface RowCarry {
  input?: { itemId: string; windowId: string; truncated: boolean };
  calls: Array<{ itemId: string; toolName: string; input: string; outcome: CallOutcome; detail?: string }>;
  omittedCalls: number;
}

export type BoundaryKind = "rollover" | "compaction" | "reset";

export interface RowBoundary {
  kind: BoundaryKind;
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
  parts: RowPart[];
  boundary?: RowBoundary;
  carry?: RowCarry;
  rejected?: RowRejected;
}

/** Why a `rejected-input` row was not sent; `cut` when only a beginning of it is stored (ADR 0069). */
export interface RowRejected {
  reason?: string;
  estimatedTokens?: number;
  hardCeiling?: number;
  cut?: { totalChars: number; keptChars: number; droppedFiles: number };
}

export interface WindowView {
  windowId: string;
  number: number;
  kind: "initial" | BoundaryKind;
  firstSeq: number;
  lastSeq: number;
  items: number;
  startedAt: string;
  reason?: string;
  percent?: number;
}

export interface UsageView {
  windowId: string;
  contextTokens: number;
  contextLimit: number | null;
  threshold: number | null;
  hardCeiling: number | null;
  percent: number | null;
  thresholdPercent: number | null;
  tokensUntilRollover: number | null;
  /** What the window's requests spent (`null` in the usage events while a turn streams). */
  spend: SpendView | null;
  /** The model whose context limit the figures are measured against (ADR 0080). */
  model?: string | null;
  /** `session`: the session's own model; `server`: the session names none, the server's stands in. */
  modelSource?: "session" | "server" | null;
}

/** Input of a window's requests, the part read from the provider's prompt cache, and the estimated cost. */
export interface SpendView {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cachedShare: number;
  /** USD at public prices; `null` when a model of the window has none (tokens only). */
  costUsd: number | null;
  uncachedCostUsd: number | null;
}

export interface InfoView {
  version: string;
  dir: string;
  chat: { available: boolean; model: string | null; demo: boolean };
  /** Whether `ctxwin serve --eval` loaded a results file (the Eval view). */
  eval: { loaded: boolean; file: string | null };
  /** The search modes the server answers; hybrid and semantic need `ctxwin serve --embedding-model`. */
  search: { modes: SearchMode[]; embeddingModel: string | null };
}

export type SearchMode = "literal" | "ranked" | "hybrid" | "semantic";

export interface SessionSummary {
  sessionId: string;
  title: string;
  /** null for a session created for chatting that has no rows yet. */
  lastActivity: string | null;
  windows: number;
  rows: number;
  /** A sub-agent's session: its parent session and the item of the `task` call that started it. */
  parent: { sessionId: string; itemId: string } | null;
  /** A fork: its origin session and the last item it shares with it. */
  forkOf: { sessionId: string; atItem: string } | null;
}

export interface SessionDetail extends SessionSummary {
  lastSeq: number;
  usage: UsageView;
  busy: boolean;
}

export interface RowsPage {
  rows: RowView[];
  hasMoreBefore: boolean;
  hasMoreAfter: boolean;
}

/** How a hybrid or semantic search used the vectors (docs/web-api.md). */
export interface SearchEmbeddingsNote {
  status: "used" | "unavailable";
  model?: string;
  dimensions?: number;
  /** Rows of the searched range not embedded yet: only word search can find them. */
  pendingRows: number;
  message?: string;
}

export interface SearchResult {
  hits: SearchHit[];
  /** Set for hybrid and semantic searches. */
  embeddings?: SearchEmbeddingsNote;
}

export interface SearchHit {
  itemId: string;
  seq: number;
  windowId: string;
  windowNumber: number;
  role: string;
  snippet: string;
  /** Where the snippet holds what the query matched (UTF-16 offsets), in order; none for a search by meaning. */
  matches: Array<{ start: number; length: number }>;
}

export type Strategy = "rollover" | "compact" | "off";

export interface SettingsView {
  strategy: Strategy;
  threshold: number;
  contextLimit: number | null;
  path: string;
  explanations: { strategy: string; threshold: string; contextLimit: string };
}

/** Server-sent events of `GET /api/sessions/:id/events`, by event name. */
export interface SessionEventMap {
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

export type SessionEventName = keyof SessionEventMap;
