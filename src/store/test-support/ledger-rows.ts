/**
 * Session "s"'s rows of the filter-term tests (ADR 0051): a user line, a file read, a hidden
 * continue, a system line and a last user line, each mentioning the ledger; session "t"'s row, and
 * the filter terms an append writes for both.
 */
import type { RowInput } from "../../core/row.js";
import { finishedCall, text } from "./conformance-rows.js";

/** The rows, the last one saying `lastText`. */
export const ledgerRows = (lastText: string): RowInput[] => [
  text("deploy the ledger"),
  {
    role: "assistant",
    parts: [finishedCall({ toolName: "Read_File", toolCallId: "c1", input: { path: "ledger.md" }, output: "ledger" })],
  },
  text("hidden ledger", { synthetic: true, uiVisible: false, meta: { type: "continue" } }),
  { role: "system", parts: [{ type: "text", text: "ledger rules" }] },
  text(lastText),
];

/** Session "t"'s row: two calls of one tool, its name in two cases (one term, lower case). */
export const bashRow: RowInput = {
  role: "assistant",
  parts: [
    { type: "tool-bash", toolCallId: "c2", state: "input-available", input: { command: "ledger" } },
    { type: "tool-Bash", toolCallId: "c3", state: "input-available", input: {} },
  ],
};

/** The filter terms (`<session> <term> <seq>`) of `ledgerRows` appended to session "s" and `bashRow` to "t". */
export const LEDGER_FILTER_TERMS = [
  "s role:assistant 2",
  "s role:system 4",
  "s role:user 1",
  "s role:user 5",
  "s tool:read_file 2",
  "t role:assistant 1",
  "t tool:bash 1",
];
