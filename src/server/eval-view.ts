/**
 * `GET /api/eval`: a finished (or running) `ctxwin eval` run as the web UI shows it — the run's
 * header, the comparison table of `ctxwin eval` (one row per suite and strategy) and every item's
 * result. The server neither reads nor scores results: `ctxwin serve --eval` hands it a source
 * that does (src/cli/serve/eval-source.ts), so this file only states the answer's shape.
 */
import { ApiError } from "./api-error.js";

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

export interface EvalView {
  file: string;
  run: { model: string; contextLimit: number; seed: number; startedAt: string };
  /** The suites with results, in the order of `ctxwin eval`. */
  suites: string[];
  summary: EvalSummaryRow[];
  items: EvalItemView[];
}

/** Where the server gets an eval run from; `read` runs on every request, so a running eval shows its progress on reload. */
export interface EvalSource {
  /** The results file, as shown to people. */
  file: string;
  /** The run now; throws (one line) when the file has become unreadable. */
  read(): EvalView;
}

/**
 * The source's run, or a 409 `eval-unreadable` with its one-line reason.
 *
 * @example json(response, evalView(source));
 */
export function evalView(source: EvalSource): EvalView {
  try {
    return source.read();
  } catch (error) {
    const message = error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error);
    throw new ApiError({ status: 409, code: "eval-unreadable", message, cause: error });
  }
}
