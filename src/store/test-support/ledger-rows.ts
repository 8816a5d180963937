/**
 * Session "s"'s rows of the filter-term tests (ADR 0051): a user line, a file read, a hidden
 * continue, a system line and a last user line, each mentioning the ledger.
 */
import type { RowInput } from "../../core/row.js";
import { text } from "./conformance-rows.js";

/** The rows, the last one saying `lastText`. */
export const ledgerRows = (lastText: string): RowInput[] => [
  text("deploy the ledger"),
  {
    role: "assistant",
    parts: [
      {
        type: "dynamic-tool",
        toolName: "Read_File",
        toolCallId: "c1",
        state: "output-available",
        input: { path: "ledger.md" },
        output: "ledger",
      },
    ],
  },
  text("hidden ledger", { synthetic: true, uiVisible: false, meta: { type: "continue" } }),
  { role: "system", parts: [{ type: "text", text: "ledger rules" }] },
  text(lastText),
];
