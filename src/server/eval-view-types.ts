/**
 * The shape of `GET /api/eval` and `GET /api/eval/items` (docs/web-api.md): a `ctxwin eval` run as
 * the web UI shows it — the run's header and the comparison table of `ctxwin eval` (one row per
 * suite and strategy), then the items' results a page at a time. Types only and no imports: the web UI (web/, built by Vite with its own tsconfig)
 * imports this file as the one statement of the contract both sides code against.
 */

/** One row of the comparison table; `null` where the run cannot say (no scored item, an unknown price). */
export interface EvalSummaryRow {
  suite: string;
  strategy: string;
  /** Items scored or blocked. */
  items: number;
  failed: number;
  blocked: number;
  /** Mean score of the scored and blocked items, from 0 to 1. */
  score: number | null;
  evidenceReached: number | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  wallSeconds: number;
  rollovers: number;
  compactions: number;
  historyCalls: number;
}

/** One run of one item with one strategy. */
export interface EvalItemView {
  suite: string;
  itemId: string;
  strategy: string;
  status: "scored" | "blocked" | "failed";
  score: number;
  evidenceReached: number | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  wallMilliseconds: number;
  rollovers: number;
  compactions: number;
  historyCalls: number;
  /** Why the item was blocked or failed, one line. */
  error: string | null;
  answers: Array<{ question: string; answer: string; expected: string; score: number }>;
}

/** One eval run: its header and the comparison table; the items come in pages (`EvalItemsPage`). */
export interface EvalView {
  file: string;
  run: { model: string; contextLimit: number; seed: number; startedAt: string };
  /** The suites with results, in the order of `ctxwin eval`. */
  suites: string[];
  summary: EvalSummaryRow[];
}

/** Which items a page holds: a suite's, optionally one strategy's, from `cursor` (items already shown) on. */
export interface EvalItemsQuery {
  suite: string;
  strategy?: string;
  limit: number;
  cursor: number;
}

/** A page of items in the results file's order; `nextCursor` asks for the next page, `null` after the last. */
export interface EvalItemsPage {
  items: EvalItemView[];
  /** The suite's (and strategy's) items in the file: all the pages together. */
  total: number;
  nextCursor: string | null;
}
