/**
 * The context timeline of a session (issue 19): one point per provider request, the marks where
 * the budget acted, and the windows as spans. Built from stored rows only: each step row keeps
 * the input tokens its request was sent with and the limit it was budgeted against.
 */
import type { Spend } from "../budget/step-spend.js";
import type { WindowKind } from "../windows.js";

/** What a mark on the timeline stands for. */
export const TIMELINE_MARK_KINDS = ["warning", "notes", "flush", "rollover", "compaction", "clear"] as const;
export type TimelineMarkKind = (typeof TIMELINE_MARK_KINDS)[number];

/** One provider request: the step row that answered it. */
export interface TimelinePoint {
  /** Seq of the step row (its item id is `String(seq)`). */
  seq: number;
  windowId: string;
  at: string;
  /** Input tokens the request was sent with. */
  tokens: number;
  /** `reported` by the provider, or our own `estimated` count when the provider reported none. */
  source: "reported" | "estimated";
  /** The context limit the step was budgeted against, when the row stores it. */
  limit: number | null;
  outputTokens: number | null;
  /** Input tokens the provider read from its prompt cache (`null` when it reported none). */
  cacheReadTokens: number | null;
  /** Input tokens the provider wrote to its prompt cache (`null` when it reported none). */
  cacheWriteTokens: number | null;
  /**
   * The request's cost at the catalog's public prices; `null` when the model has no known price or
   * no usage was reported.
   */
  costUsd: number | null;
  /** Tokens of the tool output the step's row holds (a share of the row's stored count). */
  toolOutputTokens: number;
  model: string;
}

export interface TimelineMark {
  kind: TimelineMarkKind;
  seq: number;
  windowId: string;
  at: string;
  /** Context tokens the mark records (a warning's or a rollover's figure), when it records one. */
  tokens: number | null;
  /** A short phrase for people: the rollover reason, the notes command, … */
  detail: string | null;
}

/** Budget lines of a window, from its limit and the budget settings. */
export interface TimelineLines {
  /** Where the warn band starts (`null` when warnings are off). */
  warnAt: number | null;
  /** The rollover threshold (`null` when proactive rollover is off). */
  threshold: number | null;
  hardCeiling: number;
}

/** Where a window was warned or rolled over: the row and the context tokens at that moment. */
export interface TimelineMoment {
  seq: number;
  tokens: number | null;
}

export interface TimelineWindow {
  windowId: string;
  /** 1 for the session's first window. */
  number: number;
  kind: WindowKind;
  reason: string | null;
  firstSeq: number;
  lastSeq: number;
  rows: number;
  startedAt: string;
  endedAt: string;
  active: boolean;
  /** Whether the rows of this window were read (points, warnings, notes and tool output below). */
  detailed: boolean;
  /** The limit the window's requests were budgeted against (its last known one). */
  limit: number | null;
  lines: TimelineLines | null;
  /** Provider requests of the window (`null` when not detailed). */
  requests: number | null;
  /** Largest input of a request of the window (`null` when not detailed or it had none). */
  peakTokens: number | null;
  warning: TimelineMoment | null;
  /** The rollover that closed this window, from the next window's boundary (known without detail). */
  rolledOver: (TimelineMoment & { reason: string | null }) | null;
  /** Tokens of tool output stored in the window (`null` when not detailed). */
  toolOutputTokens: number | null;
  /** What the window's requests spent (`null` when not detailed). */
  spend: Spend | null;
}

/** The budget settings the lines are drawn for (rows store the limit, not the threshold). */
export interface TimelineSettings {
  strategy: "rollover" | "compact" | "off";
  threshold: number;
  outputReserve: number;
}

export interface Timeline {
  sessionId: string;
  settings: TimelineSettings;
  /** Every window of the session, oldest first. */
  windows: TimelineWindow[];
  /** Requests of the detailed windows, in seq order. */
  points: TimelinePoint[];
  /** Boundaries of every window, plus warnings, notes writes and flush steps of the detailed ones; seq order. */
  marks: TimelineMark[];
  /** What the requests of the detailed windows spent together. */
  spend: Spend;
}
