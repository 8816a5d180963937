import { describe, expect, it } from "vitest";
import { stepMetadata } from "./step-usage.js";
import { LEDGER_DETAIL_CHARS, ledgerEntriesOf, renderLedger, toolCallOutcome, type LedgerRow } from "./turn-ledger.js";

type Part = { type: string; [key: string]: unknown };
const step = (seq: number, parts: Part[], notRunToolCallIds?: string[]): LedgerRow => ({
  seq,
  role: "assistant",
  parts,
  ...(notRunToolCallIds === undefined
    ? {}
    : { metadata: stepMetadata({ usage: { inputTokens: 1, outputTokens: 1 }, model: "m:x", notRunToolCallIds }) }),
});
/** A static tool's part of call `id` in `state`, with the fields that state carries. */
const toolPart = (id: string, name: string, state: string, fields: Record<string, unknown>): Part => ({
  type: `tool-${name}`,
  toolCallId: id,
  state,
  ...fields,
});
const finished = (id: string, name: string, input: unknown) =>
  toolPart(id, name, "output-available", { input, output: "RESULT" });
const threw = (id: string, name: string, input: unknown, errorText: string) =>
  toolPart(id, name, "output-error", { input, errorText });
/** A call the step refused before running it, kept with only its raw input. */
const refusedStatic = (id: string, name: string, rawInput: unknown, errorText: string) =>
  toolPart(id, name, "output-error", { rawInput, errorText });
/** A dynamic tool's part that ended in an error: an unknown tool the step refused, or one that threw. */
const dynamicError = (id: string, name: string, input: unknown, errorText: string): Part => ({
  ...threw(id, name, input, errorText),
  type: "dynamic-tool",
  toolName: name,
});
/** What the AI SDK answers for a call of a tool the step did not offer. */
const UNAVAILABLE = "Model tried to call unavailable tool 'fetch_page'.";
const flushRow = (seq: number, activeTools?: string[]): LedgerRow => ({
  seq,
  role: "user",
  parts: [{ type: "text", text: "[Context window w:0 rolls over after this step.] …" }],
  synthetic: true,
  uiVisible: true,
  meta: { type: "notes-flush", windowId: "w:0", ...(activeTools === undefined ? {} : { activeTools }) },
});

describe("toolCallOutcome", () => {
  it("tells a tool that threw from a call the step refused, by the step's record, whatever the part's shape", () => {
    // An unknown tool comes back as a dynamic part with its input, like a dynamic tool that threw.
    const refused = dynamicError("c1", "fetch_page", { url: "u" }, UNAVAILABLE);
    const failing = dynamicError("c2", "fetch_page", { url: "v" }, "HTTP 500");
    const row = step(4, [refused, failing], ["c1"]);
    expect(toolCallOutcome({ part: refused, row })).toEqual({ outcome: "not-run", detail: UNAVAILABLE });
    expect(toolCallOutcome({ part: failing, row })).toEqual({ outcome: "failed", detail: "HTTP 500" });
  });

  it("reads a step without that record by the part: a refused static call has only its raw input", () => {
    const refused = refusedStatic("c1", "read", { path: 7 }, "Invalid input for tool read");
    expect(toolCallOutcome({ part: refused, row: step(2, [refused]) })?.outcome).toBe("not-run");
    expect(toolCallOutcome({ part: threw("c2", "read", { path: "a" }, "ENOENT"), row: step(2, []) })?.outcome).toBe(
      "failed",
    );
  });

  it("counts a denied call and a call without a result as not run, a finished one as finished, text as nothing", () => {
    const row = step(2, []);
    const denied = toolPart("c", "rm", "output-denied", {
      input: {},
      approval: { id: "a", approved: false, reason: "too risky" },
    });
    expect(toolCallOutcome({ part: denied, row })).toEqual({ outcome: "not-run", detail: "denied: too risky" });
    const unanswered = toolPart("c", "rm", "input-available", { input: {} });
    expect(toolCallOutcome({ part: unanswered, row })?.outcome).toBe("not-run");
    expect(toolCallOutcome({ part: finished("c", "read", {}), row })).toEqual({ outcome: "finished" });
    expect(toolCallOutcome({ part: { type: "text", text: "hi" }, row })).toBeUndefined();
  });
});

describe("ledgerEntriesOf", () => {
  it("keeps the real arguments of a call the notes-flush step refused, and says why it did not run", () => {
    const errorText = `${UNAVAILABLE} Available tools: memory.`;
    const refused = refusedStatic("c9", "fetch_page", { url: "https://example.com/p2" }, errorText);
    const rows = [
      step(2, [finished("c1", "read", { path: "a" })]),
      flushRow(3, ["memory"]),
      step(4, [finished("c8", "memory", { command: "view" }), refused], ["c9"]),
    ];
    expect(ledgerEntriesOf(rows)).toEqual([
      { itemId: "2", toolName: "read", input: '{"path":"a"}', outcome: "finished" },
      { itemId: "4", toolName: "memory", input: '{"command":"view"}', outcome: "finished" },
      {
        itemId: "4",
        toolName: "fetch_page",
        input: '{"url":"https://example.com/p2"}',
        outcome: "not-run",
        detail: "held back in the notes-flush step (only memory ran there)",
      },
    ]);
  });

  it("keeps the error text of a refused call when the flush row does not name its tools (older rows)", () => {
    const refused = refusedStatic("c9", "fetch_page", { url: "u" }, UNAVAILABLE);
    expect(ledgerEntriesOf([flushRow(3), step(4, [refused], ["c9"])])[0]).toMatchObject({
      outcome: "not-run",
      detail: UNAVAILABLE,
    });
  });

  it("puts a failed call's error on one line, cut to its bound", () => {
    const error = `Error: disk full\n    at write (fs.js:1)\n${"x".repeat(400)}`;
    const [entry] = ledgerEntriesOf([step(2, [threw("c1", "write", { path: "out" }, error)])]);
    expect(entry).toMatchObject({ outcome: "failed" });
    expect(entry!.detail!.startsWith("Error: disk full at write (fs.js:1) xxx")).toBe(true);
    expect(entry!.detail).toHaveLength(LEDGER_DETAIL_CHARS + 1);
  });

  it("never stores a session_history query: only its action", () => {
    const lookups = [
      finished("h1", "session_history", { action: "search", query: "secret phrase alpha", mode: "literal" }),
      finished("h2", "session_history", { action: "read_item", item_id: "12" }),
    ];
    const entries = ledgerEntriesOf([step(5, lookups)]);
    expect(entries.map((entry) => entry.input)).toEqual(['{"action":"search"}', '{"action":"read_item"}']);
    expect(JSON.stringify(entries)).not.toContain("secret phrase");
  });
});

describe("renderLedger", () => {
  it("writes one line per call with its outcome, and session_history lookups as counts without queries", () => {
    const text = renderLedger({
      entries: [
        { itemId: "2", toolName: "read", input: '{"path":"a"}', outcome: "finished" },
        { itemId: "2", toolName: "session_history", input: '{"action":"search"}', outcome: "finished" },
        { itemId: "4", toolName: "boom", input: '{"why":"x"}', outcome: "failed", detail: "kaput" },
        { itemId: "6", toolName: "session_history", input: '{"action":"search"}', outcome: "finished" },
        {
          itemId: "6",
          toolName: "session_history",
          input: '{"action":"read_item"}',
          outcome: "not-run",
          detail: "not offered",
        },
        {
          itemId: "6",
          toolName: "fetch_page",
          input: '{"url":"u"}',
          outcome: "not-run",
          detail: "held back in the notes-flush step (only memory ran there)",
        },
      ],
      omitted: 1,
    });
    expect(text.split("\n").slice(1)).toEqual([
      "- (1 earlier call of the turn left out)",
      '- item 2: read {"path":"a"} → finished',
      '- item 4: boom {"why":"x"} → failed: kaput',
      '- fetch_page {"url":"u"} → not run: held back in the notes-flush step (only memory ran there)',
      "- session_history: 3 lookups (search ×2, read_item ×1; 1 not run); their queries and results are not repeated here",
    ]);
    expect(text.split("\n")[0]).toContain("not run: it never executed; call it again if you still need it.");
  });
});
