/**
 * The eval tables' columns, written once for the terminal table (`eval/summary-table.ts`), the
 * static page (`eval/report-html.ts`) and the web UI's Eval view (ADR 0102: web/ imports run-time
 * code from `core/chart/` only).
 */

/** The comparison table: one row a strategy. */
export const SUMMARY_COLUMNS = [
  "strategy",
  "items",
  "score",
  "evidence",
  "failed",
  "blocked",
  "input tok",
  "output tok",
  "cost",
  "wall s",
  "rollovers",
  "compactions",
  "history calls",
] as const;

/** The items table: one row an item and strategy. */
export const ITEM_COLUMNS = [
  "item",
  "strategy",
  "status",
  "score",
  "input tok",
  "output tok",
  "cost",
  "rollovers",
  "compactions",
  "history calls",
  "error",
] as const;
