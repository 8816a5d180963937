/**
 * The huge-row cases of the HistoryStore conformance suite (`../conformance.ts`, ADR 0048): rows
 * with megabytes in one value are stored exactly; search holds the first `MAX_SEARCH_VALUE_CHARS`
 * characters of each value; a row over `maxRowBytes`, nested too deeply or not JSON is refused
 * with a typed error. The same on every backend. Test-only.
 */
import { describe, expect } from "vitest";
import { RowValidationError } from "../../core/errors.js";
import { MAX_ROW_BYTES, MAX_ROW_NESTING, type RowInput, type RowPart } from "../../core/row.js";
import { MAX_SEARCH_VALUE_CHARS } from "../../core/search-text.js";
import type { SearchMode } from "../../core/search-query.js";
import type { StoredRow } from "../port.js";
import type { ConformanceSuite } from "./conformance-search.js";
import { finishedCall } from "./conformance-rows.js";

const MEGABYTES_5 = 5_000_000;

/** `head`, then letters up to `length` characters: one word of megabytes, the case that overflowed V8's regex stack. */
const longValue = (head: string, length: number, letter = "x") => `${head} ${letter.repeat(length - head.length - 1)}`;

const toolPart = (input: unknown, output: unknown): RowPart =>
  finishedCall({ toolName: "write_file", toolCallId: "call-1", input, output });

const assistant = (...parts: RowPart[]): RowInput => ({ role: "assistant", parts });

/** Compares without letting a failure print megabytes. */
function expectSameRow(stored: StoredRow | undefined, input: RowInput): void {
  expect(stored).toBeDefined();
  expect(JSON.stringify(stored?.parts) === JSON.stringify(input.parts)).toBe(true);
}

function refusal(error: unknown): RowValidationError {
  expect(RowValidationError.isInstance(error)).toBe(true);
  return error as RowValidationError;
}

/**
 * @example
 * describeHugeRowConformance({ get store() { return store; }, test });
 */
export function describeHugeRowConformance(suite: ConformanceSuite): void {
  const { test } = suite;
  const allSeqsOf = async (query: string, mode: SearchMode) =>
    (await suite.store.search("s", { query, mode })).hits.map((hit) => hit.row.seq);
  // Ranked search also finds the row right after a match, by its context (ADR 0052): only the rows holding the words count here.
  const seqsOf = async (query: string, mode: SearchMode) => {
    const seqs = await allSeqsOf(query, mode);
    return mode === "literal" ? seqs : seqs.filter((seq) => !seqs.includes(seq - 1));
  };
  /** Expects session "s" to hold `rows` from seq 1, each exactly as appended. */
  const expectStoredAsAppended = async (rows: readonly RowInput[]) => {
    for (const [index, row] of rows.entries()) expectSameRow(await suite.store.read("s", index + 1), row);
  };
  /** Expects, in both search modes, each query to find the rows at its seqs (`[]`: none). */
  const expectFound = async (seqsByQuery: Record<string, number[]>) => {
    for (const mode of ["literal", "ranked"] as const)
      for (const [query, seqs] of Object.entries(seqsByQuery))
        expect(await seqsOf(query, mode), `${query} (${mode})`).toEqual(seqs);
  };

  describe("huge rows", () => {
    test("stores a 5 MB tool input, a 5 MB tool output, a 5 MB text part and a 20 MiB reasoning part exactly; each is found by its beginning", async () => {
      const rows = [
        assistant(toolPart(longValue("inputhead", MEGABYTES_5), "written")),
        assistant(toolPart({ path: "notes.md" }, longValue("outputhead", MEGABYTES_5, "y"))),
        assistant({ type: "text", text: longValue("texthead →", MEGABYTES_5, "z") }),
        assistant(
          { type: "reasoning", text: longValue("reasoninghead", 20 * 1024 * 1024, "r") },
          { type: "text", text: "thought long" },
        ),
      ];
      for (const row of rows) await suite.store.append("s", [row]);
      await expectStoredAsAppended(rows);
      await expectFound({
        inputhead: [1],
        outputhead: [2],
        texthead: [3],
        "thought long": [4],
        // Reasoning is never searched, however large.
        reasoninghead: [],
      });
    });

    test("search holds the first MAX_SEARCH_VALUE_CHARS characters of each text, tool input and tool output", async () => {
      const filler = (length: number) => "filler words ".repeat(Math.ceil(length / 13)).slice(0, length);
      const cut = (head: string, tail: string) => `${head} ${filler(MAX_SEARCH_VALUE_CHARS)} ${tail}`;
      const rows = [
        assistant(
          { type: "text", text: cut("earlytext", "latetext") },
          { type: "text", text: "nexttext after a cut part" },
        ),
        assistant(toolPart(cut("earlyinput", "lateinput"), cut("earlyoutput", "lateoutput"))),
        assistant(toolPart({ content: cut("earlyobject", "lateobject") }, "ok")),
      ];
      await suite.store.append("s", rows);
      await expectStoredAsAppended(rows);
      await expectFound({
        earlytext: [1],
        nexttext: [1],
        earlyinput: [2],
        earlyoutput: [2],
        earlyobject: [3],
        latetext: [],
        lateinput: [],
        lateoutput: [],
        lateobject: [],
      });
    });

    test("refuses a row over maxRowBytes with a typed error naming the limit, and writes nothing", async () => {
      await suite.store.append("s", [assistant({ type: "text", text: "before" })]);
      const error = await suite.store
        .append("s", [assistant({ type: "text", text: "a".repeat(MAX_ROW_BYTES) })])
        .catch((caught: unknown) => caught);
      const [issue] = refusal(error).issues;
      expect(issue?.message).toContain(`limit of ${MAX_ROW_BYTES} bytes`);
      expect(issue?.message).toContain("maxRowBytes");
      expect(await suite.store.lastSeq("s")).toBe(1);
    });

    test("refuses a row nested too deeply or holding what JSON cannot, with a typed error, and writes nothing", async () => {
      const nested = (depth: number): unknown => JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`);
      const circular: Record<string, unknown> = {};
      circular["self"] = circular;
      const shallowEnough = assistant(toolPart(nested(MAX_ROW_NESTING - 4), "ok"));
      await suite.store.append("s", [shallowEnough]);
      expectSameRow(await suite.store.read("s", 1), shallowEnough);
      const cases: [RowInput, string][] = [
        [assistant(toolPart(nested(MAX_ROW_NESTING + 1), "ok")), `more than ${MAX_ROW_NESTING} levels`],
        [assistant(toolPart(nested(200_000), "ok")), `more than ${MAX_ROW_NESTING} levels`],
        [{ ...assistant({ type: "text", text: "x" }), metadata: { count: 10n } }, "cannot be stored as JSON"],
        [{ ...assistant({ type: "text", text: "x" }), metadata: circular }, "cannot be stored as JSON"],
      ];
      for (const [row, message] of cases) {
        const error = await suite.store.append("s", [row]).catch((caught: unknown) => caught);
        expect(refusal(error).issues[0]?.message).toContain(message);
      }
      expect(await suite.store.lastSeq("s")).toBe(1);
    });
  });
}
