/**
 * `GET /api/eval`: a finished (or running) `ctxwin eval` run as the web UI shows it — the run's
 * header, the comparison table of `ctxwin eval` (one row per suite and strategy) and every item's
 * result. The server neither reads nor scores results: `ctxwin serve --eval` hands it a source
 * that does (src/cli/serve/eval-source.ts). The answer's shape is in eval-view-types.ts, shared with
 * the web UI.
 */
import { ApiError } from "./api-error.js";
import type { EvalView } from "./eval-view-types.js";

export type { EvalItemView, EvalSummaryRow, EvalView } from "./eval-view-types.js";

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
