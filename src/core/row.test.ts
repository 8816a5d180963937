import { describe, expect, it } from "vitest";
import { CtxwinError, InvalidArgumentError, RowValidationError } from "./errors.js";
import {
  BOUNDARY_KINDS,
  INTERNAL_ROW_TYPES,
  MAX_ROW_BYTES,
  MAX_ROW_NESTING,
  ROLLOVER_REASONS,
  ROW_FORMAT_VERSION,
  StoredRowBodySchema,
  assertSessionId,
  validateRowInputs,
  type RowPart,
} from "./row.js";
import { thrownBy } from "./test-support/thrown-error.js";

/** `[index, path]` of every issue, the part of a refusal a caller acts on. */
function locationsOf(action: () => unknown): [number, string][] {
  return thrownBy(RowValidationError, action).issues.map((issue) => [issue.index, issue.path]);
}

function rolloverMeta(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: "rollover",
    rolloverId: "roll-1",
    reason: "on-send",
    previousWindowId: "w:0",
    flushOpportunity: true,
    contextTokens: 150_000,
    maxTokens: 200_000,
    ...overrides,
  };
}

const text = (value: string) => ({ type: "text", text: value }) satisfies RowPart;

describe("validateRowInputs: valid rows", () => {
  const parts: [string, RowPart][] = [
    ["text", { type: "text", text: "hello", state: "done" }],
    [
      "reasoning",
      { type: "reasoning", text: "let me think", state: "done", providerMetadata: { anthropic: { signature: "s" } } },
    ],
    ["file (image)", { type: "file", mediaType: "image/png", url: "data:image/png;base64,AAAA", filename: "a.png" }],
    ["file (pdf)", { type: "file", mediaType: "application/pdf", url: "https://example.invalid/a.pdf" }],
    [
      "tool input-streaming",
      { type: "tool-bash", toolCallId: "call-1", state: "input-streaming", input: { command: "l" } },
    ],
    [
      "tool input-available",
      { type: "tool-bash", toolCallId: "call-1", state: "input-available", input: { command: "ls" } },
    ],
    [
      "tool approval-requested",
      { type: "tool-bash", toolCallId: "call-1", state: "approval-requested", input: {}, approval: { id: "a1" } },
    ],
    [
      "tool approval-responded",
      {
        type: "tool-bash",
        toolCallId: "call-1",
        state: "approval-responded",
        input: {},
        approval: { id: "a1", approved: true },
      },
    ],
    [
      "tool output-available",
      {
        type: "tool-bash",
        toolCallId: "call-1",
        state: "output-available",
        input: { command: "ls" },
        output: { stdout: "a\nb" },
      },
    ],
    [
      "tool output-error",
      { type: "tool-bash", toolCallId: "call-1", state: "output-error", input: { command: "ls" }, errorText: "exit 2" },
    ],
    [
      "tool output-denied",
      {
        type: "tool-bash",
        toolCallId: "call-1",
        state: "output-denied",
        input: {},
        approval: { id: "a1", approved: false, reason: "no" },
      },
    ],
    [
      "dynamic-tool",
      {
        type: "dynamic-tool",
        toolName: "mcp_fetch",
        toolCallId: "call-2",
        state: "output-available",
        input: { url: "u" },
        output: "page",
      },
    ],
    ["source-url", { type: "source-url", sourceId: "src-1", url: "https://example.invalid/", title: "Example" }],
    ["source-document", { type: "source-document", sourceId: "src-2", mediaType: "text/plain", title: "Notes" }],
    ["step-start", { type: "step-start" }],
    ["data-*", { type: "data-weather", id: "d1", data: { city: "Oslo", celsius: -3 } }],
  ];

  it.each(parts)("accepts a %s part unchanged, extra part fields included", (_label, part) => {
    const row = { role: "assistant", parts: [part] };
    expect(validateRowInputs([row])).toEqual([row]);
  });

  it.each(["system", "user", "assistant"] as const)("accepts role %s", (role) => {
    expect(validateRowInputs([{ role, parts: [text("x")] }])).toEqual([{ role, parts: [text("x")] }]);
  });

  it("accepts every envelope field and returns them all", () => {
    const row = {
      id: "row-1",
      role: "user",
      parts: [text("hi")],
      createdAt: "2025-03-01T12:00:00.000Z",
      synthetic: true,
      uiVisible: false,
      meta: { type: "lead-in", rolloverId: "roll-1", windowId: "w:7" },
      tokens: 12,
      metadata: { client: "cli", nested: [1, 2] },
    };
    expect(validateRowInputs([row])).toEqual([row]);
  });

  it.each<[string, Record<string, unknown>]>([
    ["reset", { role: "system", parts: [], boundary: { kind: "reset" } }],
    [
      "compaction",
      {
        role: "user",
        parts: [text("summary")],
        boundary: { kind: "compaction" },
        meta: { type: "compaction-summary" },
      },
    ],
    ...ROLLOVER_REASONS.map((reason): [string, Record<string, unknown>] => [
      `rollover (${reason})`,
      { role: "system", parts: [], boundary: { kind: "rollover" }, meta: rolloverMeta({ reason }) },
    ]),
  ])("accepts a %s boundary row", (_label, row) => {
    expect(validateRowInputs([row])).toEqual([row]);
  });

  it.each([
    ["offset", "2025-03-01T12:00:00+02:00"],
    ["Z with fraction", "2025-03-01T12:00:00.123456Z"],
    ["leap day", "2024-02-29T00:00:00Z"],
  ])("accepts createdAt with %s", (_label, createdAt) => {
    expect(validateRowInputs([{ role: "user", parts: [], createdAt }])[0]?.createdAt).toBe(createdAt);
  });

  it.each([0, 1, Number.MAX_SAFE_INTEGER])("accepts tokens = %d", (tokens) => {
    expect(validateRowInputs([{ role: "user", parts: [], tokens }])[0]?.tokens).toBe(tokens);
  });

  it("accepts an unknown meta.type (forward compatible) and keeps its fields", () => {
    const row = { role: "user", parts: [], synthetic: true, meta: { type: "future-thing", weight: 3 } };
    expect(validateRowInputs([row])).toEqual([row]);
  });
});

describe("validateRowInputs: refusals", () => {
  it.each<[string, unknown, [number, string][]]>([
    ["a bad role", { role: "tool", parts: [] }, [[0, "role"]]],
    ["missing parts", { role: "user" }, [[0, "parts"]]],
    ["a text part without text", { role: "user", parts: [{ type: "text" }] }, [[0, "parts.0.text"]]],
    [
      "a reasoning part with numeric text",
      { role: "assistant", parts: [text("ok"), { type: "reasoning", text: 5 }] },
      [[0, "parts.1.text"]],
    ],
    [
      "a file part without mediaType and url",
      { role: "user", parts: [{ type: "file" }] },
      [
        [0, "parts.0.mediaType"],
        [0, "parts.0.url"],
      ],
    ],
    [
      "a tool part with a numeric toolCallId",
      { role: "assistant", parts: [{ type: "tool-bash", toolCallId: 5, state: "input-available" }] },
      [[0, "parts.0.toolCallId"]],
    ],
    [
      "a tool part without state",
      { role: "assistant", parts: [{ type: "tool-bash", toolCallId: "c" }] },
      [[0, "parts.0.state"]],
    ],
    [
      "a bare dynamic-tool part",
      { role: "assistant", parts: [{ type: "dynamic-tool" }] },
      [
        [0, "parts.0.toolName"],
        [0, "parts.0.toolCallId"],
        [0, "parts.0.state"],
      ],
    ],
    ["a part without type", { role: "user", parts: [{ text: "x" }] }, [[0, "parts.0.type"]]],
    ["a part with an empty type", { role: "user", parts: [{ type: "" }] }, [[0, "parts.0.type"]]],
    ["an empty id", { id: "", role: "user", parts: [] }, [[0, "id"]]],
    [
      "a non-boolean synthetic and uiVisible",
      { role: "user", parts: [], synthetic: "yes", uiVisible: 1 },
      [
        [0, "synthetic"],
        [0, "uiVisible"],
      ],
    ],
    ["a null boundary", { role: "user", parts: [], boundary: null }, [[0, "boundary"]]],
    ["an unknown boundary kind", { role: "system", parts: [], boundary: { kind: "clear" } }, [[0, "boundary.kind"]]],
    ["extra boundary fields", { role: "system", parts: [], boundary: { kind: "reset", by: "me" } }, [[0, "boundary"]]],
    ["meta without type", { role: "user", parts: [], meta: {} }, [[0, "meta.type"]]],
    ["meta with an empty type", { role: "user", parts: [], meta: { type: "" } }, [[0, "meta.type"]]],
    ["a rollover boundary without meta", { role: "system", parts: [], boundary: { kind: "rollover" } }, [[0, "meta"]]],
    [
      "a rollover boundary with lead-in meta",
      { role: "system", parts: [], boundary: { kind: "rollover" }, meta: { type: "lead-in", rolloverId: "r" } },
      [
        [0, "meta.type"],
        [0, "meta.reason"],
        [0, "meta.previousWindowId"],
        [0, "meta.flushOpportunity"],
        [0, "meta.contextTokens"],
        [0, "meta.maxTokens"],
      ],
    ],
    ["meta.type rollover without a boundary", { role: "system", parts: [], meta: rolloverMeta() }, [[0, "boundary"]]],
    [
      "meta.type rollover on a reset boundary",
      { role: "system", parts: [], boundary: { kind: "reset" }, meta: rolloverMeta() },
      [[0, "boundary"]],
    ],
    [
      "a lead-in without rolloverId",
      { role: "user", parts: [text("hi")], meta: { type: "lead-in" } },
      [[0, "meta.rolloverId"]],
    ],
    [
      "a lead-in with a numeric rolloverId",
      { role: "user", parts: [text("hi")], meta: { type: "lead-in", rolloverId: 3 } },
      [[0, "meta.rolloverId"]],
    ],
    ["negative tokens", { role: "user", parts: [], tokens: -1 }, [[0, "tokens"]]],
    ["fractional tokens", { role: "user", parts: [], tokens: 1.5 }, [[0, "tokens"]]],
    ["string tokens", { role: "user", parts: [], tokens: "5" }, [[0, "tokens"]]],
    ["NaN tokens", { role: "user", parts: [], tokens: Number.NaN }, [[0, "tokens"]]],
    ["infinite tokens", { role: "user", parts: [], tokens: Number.POSITIVE_INFINITY }, [[0, "tokens"]]],
    ["a row that is a number", 5, [[0, ""]]],
    ["a row that is null", null, [[0, ""]]],
  ])("refuses %s", (_label, row, expected) => {
    expect(locationsOf(() => validateRowInputs([row]))).toEqual(expected);
  });

  it("refuses tokens beyond the safe integer range, on the tokens path only", () => {
    const issues = thrownBy(RowValidationError, () =>
      validateRowInputs([{ role: "user", parts: [], tokens: 2 ** 53 }]),
    ).issues;
    expect(new Set(issues.map((issue) => `${issue.index}:${issue.path}`))).toEqual(new Set(["0:tokens"]));
  });

  it("refuses unknown top-level fields and names each of them", () => {
    const { issues } = thrownBy(RowValidationError, () =>
      validateRowInputs([{ role: "user", parts: [], sessionId: "s", seq: 4 }]),
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ index: 0, path: "" });
    expect(issues[0]?.message).toContain('"sessionId"');
    expect(issues[0]?.message).toContain('"seq"');
  });

  it.each(["rolloverId", "reason", "previousWindowId", "flushOpportunity", "contextTokens", "maxTokens"])(
    "refuses a rollover boundary whose meta lacks %s",
    (field) => {
      const meta = rolloverMeta();
      delete meta[field];
      const { issues } = thrownBy(RowValidationError, () =>
        validateRowInputs([{ role: "system", parts: [], boundary: { kind: "rollover" }, meta }]),
      );
      expect(issues.map((issue) => [issue.index, issue.path])).toEqual([[0, `meta.${field}`]]);
      expect(issues[0]?.message).toMatch(/^rollover boundary: /);
    },
  );

  it.each<[string, unknown]>([
    ["rolloverId", ""],
    ["rolloverId", "r".repeat(201)],
    ["reason", "bored"],
    ["previousWindowId", "w:01"],
    ["previousWindowId", "w:-1"],
    ["previousWindowId", "7"],
    ["flushOpportunity", "yes"],
    ["contextTokens", -1],
    ["contextTokens", 1.5],
    ["maxTokens", "200000"],
  ])("refuses a rollover boundary whose meta.%s is %j", (field, value) => {
    const meta = rolloverMeta({ [field]: value });
    expect(
      locationsOf(() => validateRowInputs([{ role: "system", parts: [], boundary: { kind: "rollover" }, meta }])),
    ).toEqual([[0, `meta.${field}`]]);
  });

  it.each([
    "",
    "yesterday",
    "2025-03-01",
    "2025-03-01T12:00:00",
    "2025-03-01T12:00:00+0200",
    "2025-13-01T00:00:00Z",
    "2025-02-30T00:00:00Z",
    "2025-03-01T25:00:00Z",
  ])("refuses createdAt %j", (createdAt) => {
    expect(locationsOf(() => validateRowInputs([{ role: "user", parts: [], createdAt }]))).toEqual([[0, "createdAt"]]);
  });

  it.each<[string, unknown, string]>([
    ["an empty array", [], "append needs at least one row"],
    ["an object", { role: "user", parts: [] }, "rows must be an array"],
    ["undefined", undefined, "rows must be an array"],
  ])("refuses %s as the rows argument", (_label, rows, message) => {
    expect(thrownBy(RowValidationError, () => validateRowInputs(rows)).issues).toEqual([
      { index: -1, path: "", message },
    ]);
  });

  it("reports every issue of every row at once, with the row index", () => {
    const rows = [
      { role: "user", parts: [text("fine")] },
      { role: "robot", parts: [text("bad role")] },
      { role: "assistant", parts: [text("fine too")] },
      { role: "user", parts: [{ type: "text" }], tokens: -4 },
    ];
    const error = thrownBy(RowValidationError, () => validateRowInputs(rows));
    expect(error.issues.map((issue) => [issue.index, issue.path])).toEqual([
      [1, "role"],
      [3, "parts.0.text"],
      [3, "tokens"],
    ]);
    expect(error.message).toMatch(/^Rows refused: 3 problem\(s\) found, nothing was written \(row 1, role: /);
  });

  // BUG (src/core/row.ts, RowInputSchema): zod 4 skips `.superRefine` once the object itself has
  // issues, so the cross-field checks (rollover meta, lead-in rolloverId) stay silent whenever
  // another field of the same row is wrong. validateRowInputs promises "all problems of all rows
  // at once"; here only `role` is reported, `meta` is missing from the issues.
  it("reports cross-field problems of a row that also has a field problem", () => {
    const row = { role: "robot", parts: [], boundary: { kind: "rollover" } };
    expect(locationsOf(() => validateRowInputs([row]))).toEqual([
      [0, "role"],
      [0, "meta"],
    ]);
  });
});

describe("validateRowInputs: size limit", () => {
  const utf8Length = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

  it("defaults to 32 MiB", () => {
    expect(MAX_ROW_BYTES).toBe(32 * 1024 * 1024);
  });

  it("accepts a row of exactly maxRowBytes and refuses one byte more (ASCII)", () => {
    const row = { role: "user", parts: [text("a".repeat(100))] };
    const size = utf8Length(row);
    expect(validateRowInputs([row], { maxRowBytes: size })).toEqual([row]);
    expect(thrownBy(RowValidationError, () => validateRowInputs([row], { maxRowBytes: size - 1 })).issues).toEqual([
      {
        index: 0,
        path: "",
        message: `row is ${size} bytes of JSON, more than the limit of ${size - 1} bytes (maxRowBytes)`,
        maxRowBytes: size - 1,
      },
    ]);
  });

  it("counts UTF-8 bytes, not UTF-16 units", () => {
    const row = { role: "user", parts: [text("€".repeat(50))] };
    const units = JSON.stringify(row).length;
    const bytes = utf8Length(row);
    expect(bytes).toBe(units + 100);
    expect(validateRowInputs([row], { maxRowBytes: bytes })).toEqual([row]);
    expect(thrownBy(RowValidationError, () => validateRowInputs([row], { maxRowBytes: units + 50 })).issues).toEqual([
      {
        index: 0,
        path: "",
        message: `row is ${bytes} bytes of JSON, more than the limit of ${units + 50} bytes (maxRowBytes)`,
        maxRowBytes: units + 50,
      },
    ]);
  });

  it("reports only the oversized rows of a batch", () => {
    const small = { role: "user", parts: [text("s")] };
    const large = { role: "user", parts: [text("l".repeat(500))] };
    expect(locationsOf(() => validateRowInputs([small, large, small, large], { maxRowBytes: 200 }))).toEqual([
      [1, ""],
      [3, ""],
    ]);
  });
});

describe("validateRowInputs: shape", () => {
  const nested = (depth: number): unknown => JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`);
  /** A tool part whose input nests `depth` levels: the row, `parts` and the part are three more. */
  const rowNesting = (depth: number) => ({
    role: "assistant",
    parts: [{ type: "tool-walk", toolCallId: "c", state: "input-available", input: nested(depth - 3) }],
  });

  it(`accepts ${MAX_ROW_NESTING} levels of arrays and objects and refuses one more, naming the part`, () => {
    expect(validateRowInputs([rowNesting(MAX_ROW_NESTING)])).toHaveLength(1);
    expect(thrownBy(RowValidationError, () => validateRowInputs([rowNesting(MAX_ROW_NESTING + 1)])).issues).toEqual([
      {
        index: 0,
        path: "parts.0",
        message: `row nests arrays and objects more than ${MAX_ROW_NESTING} levels deep (MAX_ROW_NESTING)`,
      },
    ]);
  });

  it("refuses a value nested deeper than the stack allows with the same typed error", () => {
    expect(thrownBy(RowValidationError, () => validateRowInputs([rowNesting(200_000)])).issues[0]?.message).toContain(
      `more than ${MAX_ROW_NESTING} levels deep`,
    );
  });

  it("refuses what JSON cannot write: a value that contains itself, a BigInt", () => {
    const loop: Record<string, unknown> = {};
    loop["self"] = loop;
    expect(
      thrownBy(RowValidationError, () => validateRowInputs([{ role: "user", parts: [text("x")], metadata: loop }]))
        .issues,
    ).toEqual([{ index: 0, path: "metadata.self", message: "row cannot be stored as JSON: a value contains itself" }]);
    expect(
      thrownBy(RowValidationError, () =>
        validateRowInputs([{ role: "user", parts: [text("x")], metadata: { count: 10n } }]),
      ).issues,
    ).toEqual([{ index: 0, path: "", message: "row cannot be stored as JSON: Do not know how to serialize a BigInt" }]);
  });

  it("refuses a value that repeats one array so often that its JSON could never fit, without writing it out", () => {
    let doubling: unknown[] = [];
    for (let level = 0; level < 60; level += 1) doubling = [doubling, doubling];
    expect(
      thrownBy(RowValidationError, () =>
        validateRowInputs([{ role: "user", parts: [text("x")], metadata: doubling }], { maxRowBytes: 1_000 }),
      ).issues,
    ).toEqual([
      {
        index: 0,
        path: "",
        message: "row holds more than 500 arrays and objects: its JSON is over the limit of 1000 bytes (maxRowBytes)",
        maxRowBytes: 1_000,
      },
    ]);
  });
});

describe("assertSessionId", () => {
  it.each(["a", "build-42", "s".repeat(200), "séance 😀 / project:main"])("accepts %j", (sessionId) => {
    expect(() => assertSessionId(sessionId)).not.toThrow();
  });

  it.each<[string, unknown, string]>([
    ["empty", "", "sessionId must not be empty"],
    ["201 characters", "s".repeat(201), "sessionId is longer than 200 characters"],
    ["a newline", "a\nb", "sessionId contains control characters"],
    ["a NUL", "a\u0000", "sessionId contains control characters"],
    ["a tab", "\ta", "sessionId contains control characters"],
    ["DEL", "a\u007f", "sessionId contains control characters"],
    ["a number", 42, "Invalid input: expected string, received number"],
    ["undefined", undefined, "Invalid input: expected string, received undefined"],
  ])("refuses %s", (_label, sessionId, message) => {
    let caught: unknown;
    try {
      assertSessionId(sessionId);
    } catch (error) {
      caught = error;
    }
    expect(InvalidArgumentError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toBe(`Invalid sessionId: ${message}.`);
  });
});

describe("StoredRowBodySchema (lenient reads)", () => {
  const stored = {
    v: 1,
    id: "r1",
    role: "user",
    parts: [{ type: "text", text: "hi" }],
    createdAt: "2025-03-01T12:00:00Z",
  };

  it("keeps unknown fields, unknown part fields and any boundary value", () => {
    const body = { ...stored, futureField: { a: 1 }, boundary: "garbled", parts: [{ type: "x-new", extra: true }] };
    expect(StoredRowBodySchema.parse(body)).toEqual(body);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["missing id", { id: undefined }, "id"],
    ["a zero format version", { v: 0 }, "v"],
    ["a bad role", { role: "tool" }, "role"],
    ["a part without type", { parts: [{}] }, "parts.0.type"],
  ])("refuses %s", (_label, change, path) => {
    const result = StoredRowBodySchema.safeParse({ ...stored, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual([path]);
  });
});

describe("row vocabulary (docs/design.md §3)", () => {
  it("names the format version, boundary kinds, internal types and rollover reasons", () => {
    expect(ROW_FORMAT_VERSION).toBe(1);
    expect(BOUNDARY_KINDS).toEqual(["rollover", "reset", "compaction"]);
    expect(INTERNAL_ROW_TYPES).toEqual([
      "rollover",
      "lead-in",
      "budget-warning",
      "compaction-summary",
      "rejected-input",
      "continue",
      "notes-flush",
    ]);
    expect(ROLLOVER_REASONS).toEqual(["on-send", "mid-stream", "context-exceeded", "requested"]);
  });
});

describe("error classes", () => {
  const marker = Symbol.for("ctxwin.error");

  it("CtxwinError carries name, message and cause, and is an Error", () => {
    const cause = new Error("disk full");
    const error = new CtxwinError("CtxwinTestError", "could not write", { cause });
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.message, error.cause]).toEqual(["CtxwinTestError", "could not write", cause]);
    expect("cause" in new CtxwinError("CtxwinTestError", "no cause")).toBe(false);
  });

  it("RowValidationError summarises the issues and keeps them", () => {
    const issues = [
      { index: 2, path: "parts.0.text", message: "needs text" },
      { index: 3, path: "", message: "too big" },
    ];
    const error = new RowValidationError(issues);
    expect(error.name).toBe("CtxwinRowValidationError");
    expect(error.issues).toEqual(issues);
    expect(error.message).toBe(
      "Rows refused: 2 problem(s) found, nothing was written (row 2, parts.0.text: needs text).",
    );
    expect(new RowValidationError([{ index: 0, path: "", message: "bad" }]).message).toBe(
      "Rows refused: 1 problem(s) found, nothing was written (row 0: bad).",
    );
  });

  it("InvalidArgumentError has its stable name", () => {
    const error = new InvalidArgumentError("limit must be positive");
    expect([error.name, error.message]).toEqual(["CtxwinInvalidArgumentError", "limit must be positive"]);
  });

  const rowError = new RowValidationError([{ index: 0, path: "", message: "bad" }]);
  const argumentError = new InvalidArgumentError("bad");

  it.each<[string, unknown, boolean, boolean, boolean]>([
    ["a RowValidationError", rowError, true, true, false],
    ["an InvalidArgumentError", argumentError, true, false, true],
    ["a plain CtxwinError", new CtxwinError("CtxwinOther", "x"), true, false, false],
    [
      "a plain Error named like one",
      Object.assign(new Error("x"), { name: "CtxwinRowValidationError" }),
      false,
      false,
      false,
    ],
    [
      "a lookalike object without the marker",
      { name: "CtxwinInvalidArgumentError", message: "x", issues: [] },
      false,
      false,
      false,
    ],
    ["a marker that is not true", { [marker]: "true", name: "CtxwinInvalidArgumentError" }, false, false, false],
    [
      "a private (unregistered) symbol marker",
      { [Symbol("ctxwin.error")]: true, name: "CtxwinInvalidArgumentError" },
      false,
      false,
      false,
    ],
    ["null", null, false, false, false],
    ["a string", "CtxwinRowValidationError", false, false, false],
    [
      "a copy from another package instance (row)",
      { [marker]: true, name: "CtxwinRowValidationError", issues: [] },
      true,
      true,
      false,
    ],
    [
      "a copy from another package instance (argument)",
      { [marker]: true, name: "CtxwinInvalidArgumentError" },
      true,
      false,
      true,
    ],
  ])("isInstance on %s", (_label, value, isCtxwin, isRow, isArgument) => {
    expect([
      CtxwinError.isInstance(value),
      RowValidationError.isInstance(value),
      InvalidArgumentError.isInstance(value),
    ]).toEqual([isCtxwin, isRow, isArgument]);
  });

  it("recognises an error class from a duplicate package copy, which instanceof cannot", () => {
    // A second copy of the package defines its own class with the same registered marker.
    class DuplicateCopyError extends Error {
      readonly [marker] = true;
      constructor() {
        super("from the other copy");
        this.name = RowValidationError.errorName;
      }
    }
    const foreign = new DuplicateCopyError();
    expect(foreign instanceof CtxwinError).toBe(false);
    expect([
      CtxwinError.isInstance(foreign),
      RowValidationError.isInstance(foreign),
      InvalidArgumentError.isInstance(foreign),
    ]).toEqual([true, true, false]);
  });
});
