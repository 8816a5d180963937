/**
 * Property: over random histories (every kind of row and boundary, resets included) and random
 * calls (valid, half-valid and garbage input), every result is valid JSON of at most 16 KiB with
 * the history label, and no result ever shows a row at or before the privacy floor or a hidden row.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RowInput } from "../../core/row.js";
import { isHistoryVisible } from "../../core/visibility.js";
import type { SessionHistoryResult } from "./results.js";
import { sessionHistoryTool } from "./session-history-tool.js";
import { backends } from "./test-support/backends.js";
import { callTool } from "./test-support/call-tool.js";
import * as rows from "./test-support/history-rows.js";

/** The row of each kind of text event, made from its text (a tool call, which also needs its marker, is built apart). */
const rowOfText = {
  user: rows.userText,
  assistant: rows.assistantText,
  warning: rows.budgetWarning,
  rejected: rows.rejectedInput,
  unknown: rows.unknownTypeRow,
  legacy: rows.legacyMixedRow,
  continue: rows.continueRow,
  compaction: rows.compaction,
} satisfies Record<string, (text: string) => RowInput>;

type Event = { kind: keyof typeof rowOfText | "tool"; text: string } | { kind: "rollover" | "reset" | "history-call" };

const textUnit = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("a", "b", "orders", " ", "e") },
  { weight: 2, arbitrary: fc.constantFrom("😀", "字", "é", "İ", "\n", "\t", '"', "\\", "\u0001", "\u2028") },
  { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
);
const text = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: textUnit, maxLength: 300 }) },
  { weight: 1, arbitrary: fc.string({ unit: textUnit, minLength: 5_000, maxLength: 40_000 }) },
);

const event: fc.Arbitrary<Event> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constantFrom("user", "assistant", "tool") as fc.Arbitrary<"user" | "assistant" | "tool">,
      text,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom(
        "warning",
        "rejected",
        "unknown",
        "legacy",
        "continue",
        "compaction",
      ) as fc.Arbitrary<"warning">,
      text,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom("rollover", "reset", "history-call") as fc.Arbitrary<"rollover" | "reset" | "history-call">,
    }),
  },
);

/** Rows of a history; every row with content starts with its own marker `mk<n>z`. */
function buildRows(events: readonly Event[]): { inputs: RowInput[]; markers: string[] } {
  const inputs: RowInput[] = [];
  const markers: string[] = [];
  let rollovers = 0;
  const push = (row: RowInput, marker = "") => {
    inputs.push(row);
    markers.push(marker);
  };
  for (const entry of events) {
    const marker = `mk${inputs.length}z`;
    switch (entry.kind) {
      case "tool":
        push(rows.toolCall({ name: "read_file", input: { path: marker }, output: `${marker} ${entry.text}` }), marker);
        break;
      case "rollover": {
        rollovers += 1;
        push(rows.rollover(`r${rollovers}`));
        const leadInMarker = `mk${inputs.length}z`;
        push(rows.leadIn(`r${rollovers}`, `${leadInMarker} lead-in`), leadInMarker);
        break;
      }
      case "reset":
        push(rows.reset());
        break;
      case "history-call":
        push(rows.historyToolRow());
        break;
      default:
        push(rowOfText[entry.kind](`${marker} ${entry.text}`), marker);
    }
  }
  return { inputs, markers };
}

const anyValue = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.integer({ min: -5, max: 80 }),
  fc.double(),
  fc.constantFrom(1e15, 2 ** 53, -0, Number.MAX_SAFE_INTEGER),
  fc.string({ maxLength: 12 }),
  fc.constantFrom("w:0", "w:1", "w:3", "w:10", "0", "3", "12", "-1", "1.0", "", "x".repeat(10_240)),
  fc.array(fc.nat(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);

/** Mostly valid values, sometimes garbage: most calls succeed, some must come back as error results. */
const mostly = <Value>(valid: fc.Arbitrary<Value>) =>
  fc.oneof({ weight: 8, arbitrary: valid }, { weight: 1, arbitrary: anyValue });
/** An optional parameter: usually left out (undefined or the null of strict-mode providers). */
const sometimes = <Value>(value: fc.Arbitrary<Value>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(undefined, null) }, { weight: 2, arbitrary: value });

function callArbitrary(rowCount: number): fc.Arbitrary<Record<string, unknown>> {
  const seq = fc.integer({ min: 0, max: rowCount + 2 });
  const itemId = mostly(fc.oneof(seq, seq.map(String)));
  const windowId = mostly(seq.map((value) => `w:${value}`));
  const query = mostly(
    fc.oneof(
      seq.map((value) => `mk${value}z`),
      fc.constantFrom("mk", "orders", "a", "e", "😀", "字", "lead-in", "reasoning", "history result", "İ", "\n"),
      fc.string({ unit: textUnit, minLength: 1, maxLength: 20 }),
    ),
  );
  const limit = (max: number) => sometimes(mostly(fc.integer({ min: 1, max })));
  return fc.oneof(
    fc.record({ action: fc.constant("list_windows"), limit: limit(50), before_window: sometimes(windowId) }),
    fc.record({
      action: fc.constant("list_items"),
      window_id: sometimes(windowId),
      after_item: sometimes(itemId),
      limit: limit(50),
    }),
    fc.record({
      action: fc.constant("search"),
      query,
      mode: sometimes(mostly(fc.constant("literal"))),
      window_id: sometimes(windowId),
      before_item: sometimes(itemId),
      limit: limit(25),
    }),
    fc.record({
      action: fc.constant("search"),
      mode: mostly(fc.constant("ranked")),
      query,
      window_id: sometimes(windowId),
      before_item: sometimes(itemId),
      limit: limit(25),
      offset: sometimes(mostly(fc.integer({ min: 0, max: 30 }))),
    }),
    fc.record({
      action: fc.constant("read_item"),
      item_id: itemId,
      offset_chars: sometimes(mostly(fc.integer({ min: 0, max: 50_000 }))),
      limit_chars: sometimes(mostly(fc.integer({ min: 1, max: 16_000 }))),
    }),
    fc.record({ action: anyValue, limit: anyValue, query: anyValue, item_id: anyValue, window_id: anyValue }),
  );
}

function shownItemIds(result: SessionHistoryResult): string[] {
  if (!result.ok) return [];
  switch (result.action) {
    case "list_windows":
      return result.windows
        .flatMap((window) => [window.first_item, window.last_item])
        .filter((id): id is string => id !== null);
    case "list_items":
      return result.items.map((item) => item.item_id);
    case "search":
      return result.hits.map((hit) => hit.item_id);
    case "read_item":
      return [result.item_id];
    case "list_sessions":
      return [];
  }
}

function shownWindowIds(result: SessionHistoryResult): string[] {
  if (!result.ok) return [];
  if (result.action === "list_windows") return result.windows.map((window) => window.window_id);
  if (result.action === "list_items") return result.items.map((item) => item.window_id);
  if (result.action === "search") return result.hits.map((hit) => hit.window_id);
  if (result.action === "list_sessions") return [];
  return [result.window_id];
}

describe.each(backends)("session_history property ($name)", (backend) => {
  it("every result is bounded, valid JSON; never a row at or before the floor, never a hidden row", async () => {
    // Counted across runs, so the property is known to have exercised real content, not only errors.
    let itemsShown = 0;
    let forbiddenQueried = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { minLength: 1, maxLength: 30 }).chain((events) => {
          const built = buildRows(events);
          return fc.tuple(
            fc.constant(built),
            fc.array(callArbitrary(built.inputs.length), { minLength: 1, maxLength: 12 }),
          );
        }),
        async ([{ inputs, markers }, calls]) => {
          const { store, close } = backend.open();
          try {
            const stored = await store.append("s1", inputs);
            await store.append("other", [rows.userText("mk-other-session-z orders")]);
            const floor = await store.privacyFloor("s1");
            const readable = new Set(
              stored.filter((row) => row.seq > floor && isHistoryVisible(row)).map((row) => String(row.seq)),
            );
            const forbidden = stored.flatMap((row, index) =>
              readable.has(String(row.seq)) || markers[index] === "" ? [] : [markers[index]!],
            );
            forbidden.push("mk-other-session-z", "private reasoning", "secret earlier output");
            const historyTool = sessionHistoryTool({ store, sessionId: "s1" });
            // Each generated call, then up to three pages more through its `next`, as an agent would.
            // Every run also asks for each forbidden marker outright (literal and ranked), so the
            // floor and hidden-row checks are exercised on every run, not only when the generator
            // happens to name a forbidden row.
            const direct = forbidden.flatMap((marker) => [
              { action: "search", query: marker },
              { action: "search", query: marker, mode: "ranked" },
            ]);
            const followed = async function* () {
              for (const call of [...calls, ...direct]) {
                let input: Record<string, unknown> = call;
                for (let page = 0; page < 4; page += 1) {
                  const result = await callTool(historyTool, input);
                  yield { input, result };
                  if (!result.ok || result.next === null) break;
                  input = { ...input, ...result.next };
                }
              }
            };
            for await (const { input, result } of followed()) {
              const json = JSON.stringify(result);
              const asked = JSON.stringify(input);
              for (const marker of forbidden) {
                if (asked.includes(marker)) forbiddenQueried += 1;
                else expect(json, asked.slice(0, 200)).not.toContain(marker);
              }
              for (const itemId of shownItemIds(result))
                expect(readable.has(itemId), `${itemId} for ${asked.slice(0, 200)}`).toBe(true);
              itemsShown += shownItemIds(result).length;
              for (const windowId of shownWindowIds(result))
                expect(Number(windowId.slice(2))).toBeGreaterThanOrEqual(floor);
            }
          } finally {
            await close();
          }
        },
      ),
      { numRuns: backend.name === "memory" ? 150 : 40 },
    );
    expect(itemsShown).toBeGreaterThan(20);
    expect(forbiddenQueried).toBeGreaterThan(0);
  }, 300_000);
});
