/**
 * Issue 36, items 1 and 3–5 and the smaller import findings: a transcript imported while it is
 * written (as `ctxwin mcp --import` does) ends as one clean import of the finished file; repeated
 * ids and paths import once; a manual clear does not stop later lines; one bad path does not stop
 * the others; bytes and blocks ctxwin cannot use are counted, never silently dropped.
 */
import { appendFileSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resetBoundaryRow } from "../core/rollover/notice-rows.js";
import { createMemoryStore } from "../store/memory/memory-store.js";
import { importFiles, type ImportFormat } from "./import-files.js";
import { scratchStores } from "./test-support/scratch-stores.js";
import { allRows, importChecked, sessionSnapshot } from "./test-support/session-snapshot.js";
import {
  CLAUDE_SESSION,
  CODEX_SESSION,
  claudeCodeLines,
  codexLines,
  writeLines,
} from "./test-support/transcript-lines.js";

const { temporaryDirectory, openScratchStore } = scratchStores("ctxwin-live-import-");

function toolStates(rows: { parts: unknown[] }[]): string[] {
  return rows.flatMap((row) =>
    row.parts
      .filter((part) => (part as { type: string }).type === "dynamic-tool")
      .map((part) => (part as { state: string }).state),
  );
}

describe("a transcript imported while it is written", () => {
  it("stores a tool call with the result that came after the import that first saw the call", async () => {
    const lines = claudeCodeLines({ exchanges: 2 });
    const folder = temporaryDirectory();
    const file = writeLines(folder, "live.jsonl", lines.slice(0, 6)); // ends with the second tool_use
    const store = openScratchStore();
    const first = await importChecked(store, { format: "claude-code", paths: [file] });
    expect(first.rowsWaiting).toBe(1);
    expect(toolStates(await allRows(store, CLAUDE_SESSION))).toEqual(["output-available"]);

    appendFileSync(file, `${lines[6]}\n${lines[7]}\n`);
    await importChecked(store, { format: "claude-code", paths: [file] });
    expect(toolStates(await allRows(store, CLAUDE_SESSION))).toEqual(["output-available", "output-available"]);
    expect((await store.search(CLAUDE_SESSION, { query: "ORCHID-1 is set", mode: "literal" })).hits).toHaveLength(1);
  });

  it("property: any interleaving of appends and imports equals one clean import of the final file", async () => {
    const transcripts: Record<"claude-code" | "codex", { lines: string[]; sessionId: string }> = {
      "claude-code": {
        lines: claudeCodeLines({ exchanges: 4, compactAfter: 1, extras: true }),
        sessionId: CLAUDE_SESSION,
      },
      codex: { lines: codexLines({ exchanges: 4, compactAfter: 1, extras: true }), sessionId: CODEX_SESSION },
    };
    const scenario = fc.record({
      format: fc.constantFrom<"claude-code" | "codex">("claude-code", "codex"),
      cuts: fc.uniqueArray(fc.integer({ min: 1, max: 20 }), { maxLength: 8 }),
      halfLines: fc.array(fc.boolean(), { minLength: 9, maxLength: 9 }),
      repeats: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 9, maxLength: 9 }),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ format, cuts, halfLines, repeats }) => {
        const { lines, sessionId } = transcripts[format];
        const folder = temporaryDirectory();
        const file = path.join(folder, format === "codex" ? "rollout-live.jsonl" : "live.jsonl");
        writeFileSync(file, "");
        const store = createMemoryStore();
        let written = 0;
        const steps = [...cuts.filter((cut) => cut < lines.length).sort((a, b) => a - b), lines.length];
        for (const [index, cut] of steps.entries()) {
          appendFileSync(
            file,
            lines
              .slice(written, cut)
              .map((line) => `${line}\n`)
              .join(""),
          );
          written = cut;
          // Sometimes the writer is caught half-way through its next line.
          const next = lines[written];
          const half =
            halfLines[index] === true && next !== undefined ? next.slice(0, Math.floor(next.length / 2)) : "";
          appendFileSync(file, half);
          for (let repeat = 0; repeat < repeats[index]!; repeat += 1) {
            const report = await importChecked(store, { format, paths: [file] });
            expect(report.malformedCount).toBe(0);
          }
          if (half !== "")
            writeFileSync(
              file,
              lines
                .slice(0, written)
                .map((line) => `${line}\n`)
                .join(""),
            );
        }
        const clean = createMemoryStore();
        await importFiles({
          store: clean,
          format,
          paths: [writeLines(temporaryDirectory(), path.basename(file), lines)],
        });
        expect(await sessionSnapshot(store, sessionId)).toEqual(await sessionSnapshot(clean, sessionId));
      }),
      { numRuns: 40 },
    );
  });

  it("counts a file written within the current millisecond as settled with settleMs 0 (mtime has a fraction, Date.now() has none)", async () => {
    const lines = claudeCodeLines({ exchanges: 1 });
    const file = writeLines(temporaryDirectory(), "fresh.jsonl", lines.slice(0, 2)); // ends with an unanswered call
    const written = 1_800_000_000_000; // whole milliseconds
    utimesSync(file, (written + 0.7) / 1000, (written + 0.7) / 1000); // 0.7 ms after the clock's reading
    const report = await importChecked(openScratchStore(), {
      format: "claude-code",
      paths: [file],
      settleMs: 0,
      now: () => written,
    });
    expect(report.rowsWaiting).toBe(0);
  });

  it("stores a call as it is once the transcript has settled, and a result that comes even later as a row of its own", async () => {
    const lines = claudeCodeLines({ exchanges: 1 });
    const file = writeLines(temporaryDirectory(), "crashed.jsonl", lines.slice(0, 2)); // the agent stopped after its call
    const store = openScratchStore();
    const later = () => Date.now() + 60 * 60 * 1000;
    const settled = await importChecked(store, { format: "claude-code", paths: [file], now: later });
    expect(settled.rowsWaiting).toBe(0);
    expect(toolStates(await allRows(store, CLAUDE_SESSION))).toEqual(["input-available"]);

    appendFileSync(file, `${lines[2]}\n${lines[3]}\n`);
    const report = await importChecked(store, { format: "claude-code", paths: [file], now: later });
    expect(report.warnings.join("\n")).toMatch(/1 tool results came after their calls/);
    const rows = await allRows(store, CLAUDE_SESSION);
    expect(rows.filter((row) => row.id === "u-0001#result:toolu_0")).toHaveLength(1);
    expect(JSON.stringify(rows)).toContain("src/settings.ts:1: ORCHID-0");
    expect((await importChecked(store, { format: "claude-code", paths: [file], now: later })).rowsAdded).toBe(0);
  });

  it("counts nothing of a half-written last line, and imports it once it is whole", async () => {
    const lines = codexLines({ exchanges: 1 });
    const file = writeLines(temporaryDirectory(), "rollout-half.jsonl", lines.slice(0, 2));
    appendFileSync(file, lines[2]!.slice(0, 30));
    const store = openScratchStore();
    expect((await importChecked(store, { format: "codex", paths: [file] })).malformedCount).toBe(0);
    appendFileSync(file, `${lines[2]!.slice(30)}\n${lines[3]}\n${lines[4]}\n`);
    await importChecked(store, { format: "codex", paths: [file] });
    expect(toolStates(await allRows(store, CODEX_SESSION))).toEqual(["output-available"]);
  });
});

describe("repeated ids and paths", () => {
  it.each<[ImportFormat, () => string[], string]>([
    ["claude-code", () => claudeCodeLines({ exchanges: 3 }), CLAUDE_SESSION],
    ["codex", () => codexLines({ exchanges: 3 }), CODEX_SESSION],
  ])("%s: a line repeated in a file imports once, on every run", async (format, make, sessionId) => {
    const lines = make();
    const repeated = [...lines, lines[2]!, lines[3]!];
    const file = writeLines(
      temporaryDirectory(),
      format === "codex" ? "rollout-repeat.jsonl" : "repeat.jsonl",
      repeated,
    );
    const store = openScratchStore();
    const first = await importChecked(store, { format, paths: [file], settleMs: 0 });
    expect(first.rowsAdded).toBeGreaterThan(0);
    for (let run = 0; run < 2; run += 1)
      expect((await importChecked(store, { format, paths: [file], settleMs: 0 })).rowsAdded).toBe(0);
    const clean = createMemoryStore();
    await importFiles({
      store: clean,
      format,
      paths: [writeLines(temporaryDirectory(), path.basename(file), lines)],
      settleMs: 0,
    });
    expect(await sessionSnapshot(store, sessionId)).toEqual(await sessionSnapshot(clean, sessionId));
  });

  it.each<[ImportFormat, string]>([
    ["claude-code", "named.jsonl"],
    ["codex", "rollout-named.jsonl"],
  ])("%s: the same file named twice, or a folder and a file inside it, imports once", async (format, name) => {
    const lines = format === "codex" ? codexLines({ exchanges: 2 }) : claudeCodeLines({ exchanges: 2 });
    const folder = temporaryDirectory();
    const file = writeLines(folder, name, lines);
    const link = path.join(temporaryDirectory(), "link.jsonl");
    symlinkSync(file, link);
    const store = openScratchStore();
    const report = await importChecked(store, { format, paths: [file, folder, file, link], settleMs: 0 });
    expect(report.files).toBe(1);
    const rows = await allRows(store, format === "codex" ? CODEX_SESSION : CLAUDE_SESSION);
    expect(rows.filter((row) => row.meta?.type === "imported-session")).toHaveLength(1);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
  });
});

describe("a manual clear of an imported session", () => {
  it("keeps importing the transcript's new lines after the clear", async () => {
    const lines = claudeCodeLines({ exchanges: 3 });
    const file = writeLines(temporaryDirectory(), "cleared.jsonl", lines.slice(0, 8));
    const store = openScratchStore();
    await importChecked(store, { format: "claude-code", paths: [file], settleMs: 0 });
    await store.append(CLAUDE_SESSION, [resetBoundaryRow({})]);
    appendFileSync(
      file,
      lines
        .slice(8)
        .map((line) => `${line}\n`)
        .join(""),
    );

    const report = await importChecked(store, { format: "claude-code", paths: [file], settleMs: 0 });
    expect(report.warnings).toEqual([]);
    expect(report.rowsAdded).toBe(3);
    const visible = (await store.items(CLAUDE_SESSION, { afterSeq: 0, limit: 50 })).rows;
    expect(visible.map((row) => row.id)).toEqual(["u-0008", "u-0009", "u-0011"]);
  });
});

describe("paths", () => {
  it("reports a link loop and a dangling link, imports every other path, and follows linked files in folders", async () => {
    const folder = temporaryDirectory();
    const loop = path.join(folder, "loop");
    symlinkSync(loop, loop);
    const elsewhere = temporaryDirectory();
    const target = writeLines(
      elsewhere,
      "kept-elsewhere.jsonl",
      claudeCodeLines({ exchanges: 1, sessionId: "0e1d2c3b-4a59-4867-9586-a4b3c2d1e0f9" }),
    );
    const projects = path.join(temporaryDirectory(), "projects");
    mkdirSync(path.join(projects, "app"), { recursive: true });
    symlinkSync(target, path.join(projects, "app", "linked.jsonl"));
    symlinkSync(path.join(elsewhere, "gone.jsonl"), path.join(projects, "app", "dangling.jsonl"));
    symlinkSync(projects, path.join(projects, "app", "back-to-projects"));
    const plain = writeLines(temporaryDirectory(), "plain.jsonl", claudeCodeLines({ exchanges: 1 }));

    const store = openScratchStore();
    const report = await importChecked(store, { format: "claude-code", paths: [loop, projects, plain], settleMs: 0 });
    expect(report.files).toBe(2);
    expect(report.sessionsUpdated).toBe(2);
    expect(report.warnings).toHaveLength(2);
    expect(report.warnings.join("\n")).toMatch(/loop: .*ELOOP/);
    expect(report.warnings.join("\n")).toMatch(/dangling\.jsonl: .*ENOENT/);
  });
});

describe("what the importer cannot use is counted", () => {
  const line = (uuid: string, content: unknown) =>
    JSON.stringify({
      type: "assistant",
      uuid,
      sessionId: "5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d",
      timestamp: "2026-11-20T09:00:00.000Z",
      message: { role: "assistant", content },
    });

  it("counts lines with invalid UTF-8, lines without a usable block, and names an unnamed tool 'tool'", async () => {
    const folder = temporaryDirectory();
    const file = path.join(folder, "odd.jsonl");
    const prompt = JSON.stringify({
      type: "user",
      uuid: "p-1",
      sessionId: "5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d",
      timestamp: "2026-11-20T08:59:00.000Z",
      message: { role: "user", content: "Hello" },
    });
    const [before, after] = line("a-1", [{ type: "text", text: "cafX and more" }]).split("X") as [string, string];
    const result = line("a-4", [{ type: "tool_result", tool_use_id: "toolu_x", content: "done" }]).replaceAll(
      '"assistant"',
      '"user"',
    );
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(`${prompt}\n${before}`),
        Buffer.from([0xff]), // not UTF-8
        Buffer.from(`${after}\n`),
        Buffer.from(`${line("a-2", [{ type: "text", text: 42 }, { nothing: true }])}\n`),
        Buffer.from(
          `${line("a-3", [{ type: "tool_use", id: "toolu_x", name: { nested: "object" }, input: {} }])}\n${result}\n`,
        ),
      ]),
    );

    const store = openScratchStore();
    const report = await importChecked(store, { format: "claude-code", paths: [file], settleMs: 0 });
    expect(report.invalidUtf8Lines).toBe(1);
    expect(report.malformed).toEqual([{ file, line: 3, message: "no content block ctxwin can read" }]);
    const rows = await allRows(store, "claude-code:5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d");
    expect(JSON.stringify(rows)).toContain("caf\ufffd");
    const tool = rows.flatMap((row) => row.parts).find((part) => part.type === "dynamic-tool") as {
      toolName: string;
      state: string;
    };
    expect(tool).toMatchObject({ toolName: "tool", state: "output-available" });
  });
});
