/**
 * `GET /api/eval` and `GET /api/eval/items`: a finished (or running) `ctxwin eval` run as the web UI
 * shows it — the run's header and the comparison table of `ctxwin eval` (one row per suite and
 * strategy), then each item's result a page at a time, so a results file of hundreds of megabytes
 * costs a page of memory, not the file. The server neither reads nor scores results:
 * `ctxwin serve --eval` hands it a source that does (src/cli/serve/eval-source.ts). The answers'
 * shapes are in eval-view-types.ts, shared with the web UI.
 */
import { ApiError } from "./api-error.js";
import type { EvalItemsPage, EvalItemsQuery, EvalView } from "./eval-view-types.js";

export type { EvalItemsPage, EvalItemsQuery, EvalItemView, EvalSummaryRow, EvalView } from "./eval-view-types.js";

/** Where the server gets an eval run from; each call reads the file again, so a running eval shows its progress on reload. */
export interface EvalSource {
  /** The results file, as shown to people. */
  file: string;
  /** The run now; rejects (one line) when the file has become unreadable. */
  read(): Promise<EvalView>;
  /** A page of the run's items now. */
  items(query: EvalItemsQuery): Promise<EvalItemsPage>;
}

/**
 * The source's run, or a 409 `eval-unreadable` with its one-line reason.
 *
 * @example json(response, await evalView(source));
 */
export async function evalView(source: EvalSource): Promise<EvalView> {
  return unreadableAs409(() => source.read());
}

/**
 * A page of the source's items, or a 409 `eval-unreadable`.
 *
 * @example json(response, await evalItems(source, { suite: "needle", limit: 50, cursor: 0 }));
 */
export async function evalItems(source: EvalSource, query: EvalItemsQuery): Promise<EvalItemsPage> {
  return unreadableAs409(() => source.items(query));
}

async function unreadableAs409<Value>(read: () => Promise<Value>): Promise<Value> {
  try {
    return await read();
  } catch (error) {
    const message = error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error);
    throw new ApiError({ status: 409, code: "eval-unreadable", message, cause: error });
  }
}
