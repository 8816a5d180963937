/**
 * The answer of `GET /api/sessions/:id/timeline` (docs/web-api.md): every window as an overview
 * bar, and the spans, requests and marks of the windows read row by row (`detailWindowIds`).
 */

export type TimelineMarkKind = "warning" | "notes" | "flush" | "rollover" | "compaction" | "clear";

export interface TimelinePoint {
  seq: number;
  windowId: string;
  at: string;
  tokens: number;
  source: "reported" | "estimated";
  limit: number | null;
  outputTokens: number | null;
  /** Input tokens read from / written to the provider's prompt cache (`null` when it reported none). */
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  /** Estimated cost at public prices (`null` when the model has none). */
  costUsd: number | null;
  toolOutputTokens: number;
  model: string;
}

/** What requests spent: their input, the part read from the provider's cache, the estimated cost. */
export interface TimelineSpend {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cachedShare: number;
  costUsd: number | null;
  uncachedCostUsd: number | null;
}

export interface TimelineMark {
  kind: TimelineMarkKind;
  seq: number;
  windowId: string;
  at: string;
  tokens: number | null;
  detail: string | null;
}

export interface TimelineLines {
  warnAt: number | null;
  threshold: number | null;
  hardCeiling: number;
}

export interface TimelineWindow {
  windowId: string;
  number: number;
  kind: "start" | "rollover" | "compaction" | "reset";
  reason: string | null;
  firstSeq: number;
  lastSeq: number;
  rows: number;
  startedAt: string;
  endedAt: string;
  active: boolean;
  detailed: boolean;
  limit: number | null;
  lines: TimelineLines | null;
  requests: number | null;
  peakTokens: number | null;
  warning: { seq: number; tokens: number | null } | null;
  rolledOver: { seq: number; tokens: number | null; reason: string | null } | null;
  toolOutputTokens: number | null;
  spend: TimelineSpend | null;
}

/** One window as the overview strip draws it: a bar as high as `tokens` against `limit`. */
export interface TimelineOverviewBar {
  windowId: string;
  number: number;
  kind: TimelineWindow["kind"];
  limit: number | null;
  /** The window's largest request when read row by row, else the figure it rolled over at. */
  tokens: number | null;
}

export interface TimelineView {
  sessionId: string;
  settings: { strategy: "rollover" | "compact" | "off"; threshold: number; outputReserve: number };
  /** The windows read row by row (`detailWindowIds`), oldest first. */
  windows: TimelineWindow[];
  /** Every window of the session, oldest first. */
  overview: TimelineOverviewBar[];
  points: TimelinePoint[];
  marks: TimelineMark[];
  detailWindowIds: string[];
  /** What the requests of the windows read row by row spent together. */
  spend: TimelineSpend;
}
