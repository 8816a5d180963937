/**
 * The shapes of `GET /api/eval` and `GET /api/eval/items` (docs/web-api.md): a `ctxwin eval` run loaded with
 * `ctxwin serve --eval`. One statement of it, on the server's side (types only, erased from the
 * bundle); the web UI names the whole run `EvalRunView`, beside its `EvalView` component.
 */
export type {
  EvalItemsPage,
  EvalItemView,
  EvalSummaryRow,
  EvalView as EvalRunView,
} from "../../../src/server/eval-view-types.js";
