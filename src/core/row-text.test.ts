import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  HISTORY_RESULT_OMITTED,
  SESSION_HISTORY_TOOL_NAME,
  TRUNCATION_MARKER,
  MAX_VALUE_DEPTH,
  UNWRITABLE_VALUE,
  plainText,
  renderPart,
  renderRowText,
  sliceSafe,
  toolNameOf,
  truncate,
} from "./row-text.js";

type Part = { type: string; [key: string]: unknown };

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** True when `text` has no lone surrogate (every high is followed by a low and vice versa). */
function isWellFormed(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (isHighSurrogate(code)) {
      if (!isLowSurrogate(text.charCodeAt(index + 1))) return false;
      index += 1;
    } else if (isLowSurrogate(code)) return false;
  }
  return true;
}

/** True when a cut at `offset` would separate a surrogate pair of `text`. */
const splitsPair = (text: string, offset: number) =>
  offset > 0 &&
  offset < text.length &&
  isHighSurrogate(text.charCodeAt(offset - 1)) &&
  isLowSurrogate(text.charCodeAt(offset));

describe("renderPart: non-tool parts", () => {
  it.each<[string, Part, string | undefined]>([
    ["text", { type: "text", text: "hello\nworld", state: "done" }, "hello\nworld"],
    ["empty text", { type: "text", text: "" }, ""],
    ["text without a string text", { type: "text", text: 5 }, undefined],
    ["reasoning (dropped)", { type: "reasoning", text: "secret thoughts" }, undefined],
    ["step-start", { type: "step-start" }, undefined],
    ["data-*", { type: "data-weather", data: { city: "Oslo" } }, undefined],
    ["an image file", { type: "file", mediaType: "image/png", url: "data:image/png;base64,AAAA" }, "[image]"],
    ["a pdf file", { type: "file", mediaType: "application/pdf", url: "https://example.invalid/a.pdf" }, "[file]"],
    ["a file without mediaType", { type: "file", url: "u" }, "[file]"],
    [
      "source-url",
      { type: "source-url", sourceId: "s", url: "https://example.invalid/page" },
      "[source: https://example.invalid/page]",
    ],
    ["source-url without url", { type: "source-url", sourceId: "s" }, "[source: ]"],
    [
      "source-document",
      { type: "source-document", sourceId: "s", mediaType: "text/plain", title: "Design notes" },
      "[source: Design notes]",
    ],
    ["an unknown part type", { type: "hologram", payload: "x" }, undefined],
  ])("%s", (_label, part, expected) => {
    expect(renderPart(part)).toBe(expected);
  });
});

describe("renderPart: tool parts", () => {
  const bash = (state: string, extra: Record<string, unknown> = {}): Part => ({
    type: "tool-bash",
    toolCallId: "call-1",
    state,
    input: { command: "ls" },
    ...extra,
  });

  it.each<[string, Part, string]>([
    [
      "output-available with a string output",
      bash("output-available", { output: "a.txt\nb.txt" }),
      'bash({"command":"ls"}) → a.txt\nb.txt',
    ],
    [
      "output-available with an object output",
      bash("output-available", { output: { files: ["a.txt"], count: 1 } }),
      'bash({"command":"ls"}) → {"files":["a.txt"],"count":1}',
    ],
    [
      "output-available with a null output",
      bash("output-available", { output: null }),
      'bash({"command":"ls"}) → null',
    ],
    [
      "output-error",
      bash("output-error", { errorText: "permission denied" }),
      'bash({"command":"ls"}) → error: permission denied',
    ],
    ["output-error without errorText", bash("output-error"), 'bash({"command":"ls"}) → error: '],
    [
      "output-denied",
      bash("output-denied", { approval: { id: "a", approved: false } }),
      'bash({"command":"ls"}) → denied',
    ],
    ["input-available", bash("input-available"), 'bash({"command":"ls"}) → (no result)'],
    [
      "approval-requested",
      bash("approval-requested", { approval: { id: "a" } }),
      'bash({"command":"ls"}) → (no result)',
    ],
    [
      "input-streaming without input",
      { type: "tool-bash", toolCallId: "c", state: "input-streaming" },
      "bash() → (no result)",
    ],
    [
      "a string input",
      { type: "tool-echo", toolCallId: "c", state: "output-available", input: "hi", output: "hi" },
      "echo(hi) → hi",
    ],
    [
      "a dynamic tool",
      {
        type: "dynamic-tool",
        toolName: "mcp_fetch",
        toolCallId: "c",
        state: "output-available",
        input: { url: "u" },
        output: "page",
      },
      'mcp_fetch({"url":"u"}) → page',
    ],
    [
      "a dynamic tool without a name",
      { type: "dynamic-tool", toolCallId: "c", state: "output-denied", input: {} },
      "tool({}) → denied",
    ],
    [
      "an input that JSON cannot encode",
      { type: "tool-count", toolCallId: "c", state: "output-available", input: 7n, output: 8n },
      "count(7) → 8",
    ],
  ])("%s", (_label, part, expected) => {
    expect(renderPart(part)).toBe(expected);
  });

  it("renders an input nested past MAX_VALUE_DEPTH as unwritable on every Node version, and one at the limit as JSON", () => {
    const nested = (depth: number): unknown => JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`);
    expect(
      renderPart({ type: "tool-walk", toolCallId: "c", state: "input-available", input: nested(MAX_VALUE_DEPTH + 1) }),
    ).toBe(`walk(${UNWRITABLE_VALUE}) → (no result)`);
    expect(
      renderPart({ type: "tool-walk", toolCallId: "c", state: "input-available", input: nested(MAX_VALUE_DEPTH) }),
    ).toBe(`walk(${"[".repeat(MAX_VALUE_DEPTH)}${"]".repeat(MAX_VALUE_DEPTH)}) → (no result)`);
  });

  it("renders an input nested deeper than JSON.stringify can go without throwing", () => {
    const input: unknown = JSON.parse(`${"[".repeat(200_000)}${"]".repeat(200_000)}`);
    expect(renderPart({ type: "tool-walk", toolCallId: "c", state: "input-available", input })).toBe(
      `walk(${UNWRITABLE_VALUE}) → (no result)`,
    );
  });

  it("renders an unserializable (circular) input without throwing", () => {
    const input: Record<string, unknown> = { name: "loop" };
    input["self"] = input;
    expect(renderPart({ type: "tool-walk", toolCallId: "c", state: "input-available", input })).toBe(
      "walk([object Object]) → (no result)",
    );
  });

  it.each<[string, Part]>([
    [
      "a static part",
      {
        type: `tool-${SESSION_HISTORY_TOOL_NAME}`,
        toolCallId: "c",
        state: "output-available",
        input: { action: "search", query: "x" },
        output: { items: ["secret"] },
      },
    ],
    [
      "a dynamic part",
      {
        type: "dynamic-tool",
        toolName: SESSION_HISTORY_TOOL_NAME,
        toolCallId: "c",
        state: "output-available",
        input: { action: "search", query: "x" },
        output: "secret",
      },
    ],
    [
      "an errored part",
      {
        type: `tool-${SESSION_HISTORY_TOOL_NAME}`,
        toolCallId: "c",
        state: "output-error",
        input: { action: "search", query: "x" },
        errorText: "secret",
      },
    ],
  ])("omits earlier session_history results (%s)", (_label, part) => {
    expect(renderPart(part)).toBe(`session_history({"action":"search","query":"x"}) → ${HISTORY_RESULT_OMITTED}`);
  });

  it("truncates input and output separately at maxValueChars, with the marker", () => {
    const part: Part = {
      type: "tool-read",
      toolCallId: "c",
      state: "output-available",
      input: "abcdef",
      output: "uvwxyz",
    };
    expect(renderPart(part, { maxValueChars: 3 })).toBe(`read(abc${TRUNCATION_MARKER}) → uvw${TRUNCATION_MARKER}`);
    expect(renderPart(part, { maxValueChars: 6 })).toBe("read(abcdef) → uvwxyz");
    expect(renderPart({ ...part, output: { a: 1 } }, { maxValueChars: 4 })).toBe(
      `read(abcd${TRUNCATION_MARKER}) → {"a"${TRUNCATION_MARKER}`,
    );
  });

  it("does not truncate the omitted-history marker", () => {
    const part: Part = {
      type: `tool-${SESSION_HISTORY_TOOL_NAME}`,
      toolCallId: "c",
      state: "output-available",
      input: "long input",
      output: "x",
    };
    expect(renderPart(part, { maxValueChars: 4 })).toBe(
      `session_history(long${TRUNCATION_MARKER}) → ${HISTORY_RESULT_OMITTED}`,
    );
  });
});

describe("renderRowText", () => {
  it("joins rendered parts with newlines and skips parts that render to nothing", () => {
    const parts: Part[] = [
      { type: "step-start" },
      { type: "reasoning", text: "hidden" },
      { type: "text", text: "Let me check." },
      { type: "tool-bash", toolCallId: "c", state: "output-available", input: { command: "ls" }, output: "a.txt" },
      { type: "data-progress", data: 50 },
      { type: "text", text: "Found it." },
      { type: "file", mediaType: "image/jpeg", url: "u" },
    ];
    expect(renderRowText({ parts })).toBe('Let me check.\nbash({"command":"ls"}) → a.txt\nFound it.\n[image]');
  });

  it("renders a row without parts as empty text", () => {
    expect(renderRowText({ parts: [] })).toBe("");
  });

  it("cuts text parts at maxTextChars, and cut values end with the given marker", () => {
    const parts: Part[] = [
      { type: "text", text: "a long sentence" },
      { type: "tool-read", toolCallId: "c", state: "output-available", input: "0123456789", output: "x" },
    ];
    expect(renderRowText({ parts }, { maxTextChars: 6, maxValueChars: 2 })).toBe(
      `a long${TRUNCATION_MARKER}\nread(01${TRUNCATION_MARKER}) → x`,
    );
    expect(renderRowText({ parts }, { maxTextChars: 6, maxValueChars: 2, truncationMarker: "" })).toBe(
      "a long\nread(01) → x",
    );
  });

  it("passes maxValueChars on to tool parts but never cuts text parts", () => {
    const parts: Part[] = [
      { type: "text", text: "a long sentence" },
      { type: "tool-read", toolCallId: "c", state: "output-available", input: "0123456789", output: "x" },
    ];
    expect(renderRowText({ parts }, { maxValueChars: 2 })).toBe(`a long sentence\nread(01${TRUNCATION_MARKER}) → x`);
  });
});

describe("terminal escapes (issue 50)", () => {
  it("are left out of text parts and tool values, and the part keeps them", () => {
    const text = { type: "text", text: "\u001b[2mCompacted \u001b[22m(ctrl+o to see the summary)" };
    const tool = {
      type: "dynamic-tool",
      toolName: "Bash",
      toolCallId: "c",
      state: "output-available",
      input: { command: "ls --color" },
      output: "\u001b[1;34msrc\u001b[0m",
    };
    expect(renderRowText({ parts: [text, tool] })).toBe(
      'Compacted (ctrl+o to see the summary)\nBash({"command":"ls --color"}) → src',
    );
    expect(text.text).toContain("\u001b[2m");
    expect(plainText("no escapes")).toBe("no escapes");
  });
});

describe("toolNameOf", () => {
  it.each<[Part, string | undefined]>([
    [{ type: "tool-bash" }, "bash"],
    [{ type: "tool-mcp-server-fetch" }, "mcp-server-fetch"],
    [{ type: "dynamic-tool", toolName: "fetch" }, "fetch"],
    [{ type: "dynamic-tool", toolName: 5 }, "tool"],
    [{ type: "text", text: "tool-bash" }, undefined],
    [{ type: "tools" }, undefined],
  ])("%j → %s", (part, name) => {
    expect(toolNameOf(part)).toBe(name);
  });
});

describe("truncate", () => {
  it.each<[string, number, string]>([
    ["abcdef", 3, `abc${TRUNCATION_MARKER}`],
    ["abcdef", 6, "abcdef"],
    ["abcdef", 10, "abcdef"],
    ["abcdef", 0, TRUNCATION_MARKER],
    ["", 0, ""],
    ["a😀b", 2, `a${TRUNCATION_MARKER}`],
    ["a😀b", 3, `a😀${TRUNCATION_MARKER}`],
    ["😀😀", 1, TRUNCATION_MARKER],
    ["😀😀", 3, `😀${TRUNCATION_MARKER}`],
  ])("truncate(%j, %d) → %j", (text, maxChars, expected) => {
    expect(truncate(text, maxChars)).toBe(expected);
  });
});

describe("sliceSafe", () => {
  it.each<[string, number, number, string]>([
    ["a😀b", 0, 2, "a"],
    ["a😀b", 0, 3, "a😀"],
    ["a😀b", 1, 3, "😀"],
    ["a😀b", 2, 4, "b"],
    ["a😀b", 1, 2, ""],
    ["a😀b", 0, 4, "a😀b"],
    ["abc", -5, 2, "ab"],
    ["abc", 1, 99, "bc"],
    ["abc", 2, 1, ""],
    ["abc", 5, 9, ""],
    ["😀", 1, 2, ""],
    ["x\uD800y", 0, 2, "x\uD800"],
    ["\uDC00x", 0, 1, "\uDC00"],
  ])("sliceSafe(%j, %d, %d) → %j", (text, start, end, expected) => {
    expect(sliceSafe(text, start, end)).toBe(expected);
  });

  const astralHeavy = fc.string({
    unit: fc.constantFrom("a", "é", "中", "😀", "𝔸", "\u{10FFFF}", "👩‍💻"),
    maxLength: 40,
  });
  const wellFormedText = fc.oneof(astralHeavy, fc.string({ unit: "binary", maxLength: 40 }));
  const offset = fc.integer({ min: -3, max: 90 });

  it("keeps well-formed text well-formed and returns a slice of the input near the requested edges", () => {
    fc.assert(
      fc.property(wellFormedText, offset, offset, (text, start, end) => {
        const result = sliceSafe(text, start, end);
        expect(isWellFormed(result)).toBe(true);
        const from = Math.max(0, start);
        const to = Math.min(text.length, end);
        if (result === "") return;
        const actualFrom = text.startsWith(result, from) ? from : from + 1;
        expect(text.slice(actualFrom, actualFrom + result.length)).toBe(result);
        expect(actualFrom + result.length === to || actualFrom + result.length === to - 1).toBe(true);
      }),
    );
  });

  it("never cuts between the halves of a pair, even in text that has lone surrogates", () => {
    const withLoneHalves = fc.string({ unit: fc.constantFrom("a", "😀", "\uD83D", "\uDE00"), maxLength: 30 });
    fc.assert(
      fc.property(withLoneHalves, offset, offset, (text, start, end) => {
        const result = sliceSafe(text, start, end);
        if (result === "") return;
        const from = Math.max(0, start);
        const actualFrom = text.startsWith(result, from) && !splitsPair(text, from) ? from : from + 1;
        expect(text.slice(actualFrom, actualFrom + result.length)).toBe(result);
        expect([splitsPair(text, actualFrom), splitsPair(text, actualFrom + result.length)]).toEqual([false, false]);
      }),
    );
  });

  it("truncate yields a well-formed prefix of at most maxChars units, losing at most one unit", () => {
    fc.assert(
      fc.property(wellFormedText, fc.integer({ min: 0, max: 90 }), (text, maxChars) => {
        const result = truncate(text, maxChars);
        if (text.length <= maxChars) {
          expect(result).toBe(text);
          return;
        }
        expect(result.endsWith(TRUNCATION_MARKER)).toBe(true);
        const prefix = result.slice(0, -TRUNCATION_MARKER.length);
        expect(text.startsWith(prefix)).toBe(true);
        expect(isWellFormed(prefix)).toBe(true);
        expect([maxChars - 1, maxChars]).toContain(prefix.length);
      }),
    );
  });
});
