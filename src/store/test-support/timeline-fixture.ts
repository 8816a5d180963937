/**
 * A small session with every mark the context timeline draws, written as the session engine
 * writes its rows: step rows with their usage and limit, two budget warnings, a notes write, a
 * notes-flush step, two rollovers, a compaction and a manual clear. Shared by the timeline tests
 * of the store, the CLI, the server and the web UI.
 */
import { budgetWarningRow, compactionSummaryRow, resetBoundaryRow } from "../../core/rollover/notice-rows.js";
import { continueRow, leadInRow, rolloverBoundaryRow } from "../../core/rollover/rollover-rows.js";
import { stepMetadata } from "../../core/rollover/step-usage.js";
import type { RowInput, RowPart } from "../../core/row.js";
import type { HistoryStore } from "../port.js";

export const TIMELINE_FIXTURE_LIMIT = 10_000;
/** The kinds of the marks the fixture's timeline shows, oldest first (the store's test names their seqs). */
export const TIMELINE_FIXTURE_MARK_KINDS = [
  "warning",
  "notes",
  "rollover",
  "compaction",
  "clear",
  "warning",
  "flush",
  "notes",
  "rollover",
];
const MODEL = "demo:scripted";

function user(text: string): RowInput {
  return { role: "user", parts: [{ type: "text", text }], tokens: Math.ceil(text.length / 4) };
}

function step(inputTokens: number, parts: RowPart[], extra: Partial<RowInput> = {}): RowInput {
  return {
    role: "assistant",
    parts,
    tokens: 40,
    metadata: stepMetadata({
      usage: { inputTokens, outputTokens: 40 },
      model: MODEL,
      finishReason: "tool-calls",
      contextLimit: TIMELINE_FIXTURE_LIMIT,
    }),
    ...extra,
  };
}

const text = (value: string): RowPart[] => [{ type: "text", text: value }];

function readTool(output: string): RowPart[] {
  return [
    {
      type: "tool-read_file",
      toolCallId: `call-${output.length}`,
      state: "output-available",
      input: { path: "src/index.ts" },
      output,
    } as RowPart,
  ];
}

function notesWrite(): RowPart[] {
  return [
    {
      type: "tool-memory",
      toolCallId: "call-notes",
      state: "output-available",
      input: {
        command: "str_replace",
        path: "/memories/workspace/context-notes.md",
        old_str: "- todo",
        new_str: "- parser done",
      },
      output: { status: "ok", command: "str_replace", text: "Edited." },
    } as RowPart,
  ];
}

function rollover(
  rolloverId: string,
  previousWindowId: string,
  windowId: string,
  contextTokens: number,
  reason: "on-send" | "mid-stream",
): RowInput[] {
  return [
    rolloverBoundaryRow({
      rolloverId,
      reason,
      previousWindowId,
      flushOpportunity: true,
      contextTokens,
      maxTokens: TIMELINE_FIXTURE_LIMIT,
    }),
    leadInRow({ rolloverId, windowId, previousWindowId, reason, flushOpportunity: true }),
  ];
}

/** The budget warning of window `windowId` at `contextTokens`. */
function budgetWarning(windowId: string, contextTokens: number): RowInput {
  return budgetWarningRow({
    text: "Context is filling up: update your notes now.",
    windowId,
    contextTokens,
    maxTokens: TIMELINE_FIXTURE_LIMIT,
  });
}

/**
 * Writes the fixture session; its seqs are fixed (the tests name them).
 *
 * - w:0 (seq 1–7): steps at 2,000 / 5,200 / 6,300 tokens, a warning at seq 5, a notes write at seq 6.
 * - w:8 rollover (on-send, 7,100 tokens): steps at seq 11 and 12.
 * - w:13 compaction: a step at seq 14.
 * - w:15 manual clear: steps at seq 17 and 18, a warning at seq 19, a notes-flush step at seq 20.
 * - w:21 rollover (mid-stream, 6,900 tokens), the active window: a step at seq 24.
 *
 * @example await writeTimelineFixture({ store, sessionId: "timeline" });
 */
export async function writeTimelineFixture({
  store,
  sessionId,
}: {
  store: HistoryStore;
  sessionId: string;
}): Promise<void> {
  const batches: RowInput[][] = [
    [
      user("Map the parser and write down what you find."),
      step(2_000, readTool("export function parse() {}\n".repeat(40))),
      step(5_200, text("The parser has three stages.")),
      step(6_300, readTool("const stage = 1;\n".repeat(20))),
      budgetWarning("w:0", 6_300),
      step(6_600, notesWrite()),
      step(7_100, text("Notes updated.")),
    ],
    [
      ...rollover("r1", "w:0", "w:8", 7_100, "on-send"),
      user("Now look at the lexer."),
      step(1_500, text("Reading the lexer.")),
      step(4_000, text("The lexer is done.")),
    ],
    [
      compactionSummaryRow({ summary: "We mapped the parser and the lexer.", previousWindowId: "w:8" }),
      step(1_200, text("Continuing from the summary.")),
    ],
    [
      resetBoundaryRow({}),
      user("Start over: list the tests."),
      step(900, text("Listing the tests.")),
      step(6_500, readTool("test('parses', () => {});\n".repeat(30))),
    ],
    [budgetWarning("w:15", 6_500), step(6_700, notesWrite(), { meta: { type: "notes-flush" } })],
    [
      ...rollover("r2", "w:15", "w:21", 6_900, "mid-stream"),
      continueRow({ rolloverId: "r2" }),
      step(1_000, text("Back at the tests.")),
    ],
  ];
  for (const rows of batches) await store.append(sessionId, rows);
}
