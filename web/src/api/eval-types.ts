/**
 * The shape of `GET /api/eval` (docs/web-api.md): a `ctxwin eval` run loaded with
 * `ctxwin serve --eval` — its header, the comparison table and each item's result.
 */

/** One row of the comparison table; `null` where the run cannot say (no scored item, an unknown price). */
export interface EvalSummaryRow {
  suite: string;
  strategy: string;
  /** Items scored or blocked. */
  items: number;
  failed: number;
  blocked: number;
  /** Mean score from 0 to 1. */
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
  error: string | null;
  answers: Array<{ question: string; answer: string; expected: string; score: number }>;
}

export interface EvalRunView {
  file: string;
  run: { model: string; contextLimit: number; seed: number; startedAt: string };
  suites: string[];
  summary: EvalSummaryRow[];
  items: EvalItemView[];
}
