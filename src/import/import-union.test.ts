/**
 * Issue 34: one session's lines in several files (a shorter copy, a resumed Codex rollout, two
 * overlapping ctxwin exports) import as the union of their lines, each once, in transcript order,
 * whatever the file order and however often the import runs; every report counts exactly the rows
 * the store gained.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryStore } from "../store/memory/memory-store.js";
import type { HistoryStore } from "../store/port.js";
import { importFiles, type ImportFormat } from "./import-files.js";
import type { ImportReport } from "./import-report.js";
import { scratchStores } from "./test-support/scratch-stores.js";
import { importChecked, sessionSnapshot } from "./test-support/session-snapshot.js";
import {
  CLAUDE_SESSION,
  CODEX_SESSION,
  claudeCodeLines,
  codexLines,
  writeLines,
} from "./test-support/transcript-lines.js";

const { temporaryDirectory, openScratchStore } = scratchStores("ctxwin-import-union-");

/**
 * Imports settled files (`live`: files still being written, as files just written are) and checks
 * that the report's rows are exactly the store's change.
 */
function importUnion(
  store: HistoryStore,
  format: ImportFormat,
  paths: string[],
  { live = false } = {},
): Promise<ImportReport> {
  return importChecked(store, { format, paths, ...(live ? {} : { settleMs: 0 }) });
}

async function cleanImport(
  format: ImportFormat,
  lines: string[],
  sessionId: string,
  { live = false } = {},
): Promise<unknown[]> {
  const store = createMemoryStore();
  await importFiles({
    store,
    format,
    paths: [writeLines(temporaryDirectory(), "whole.jsonl", lines)],
    ...(live ? {} : { settleMs: 0 }),
  });
  return sessionSnapshot(store, sessionId);
}

const CTXWIN_SESSION = "exported-session";

function ctxwinLines(count: number): string[] {
  return Array.from({ length: count }, (_, index) =>
    JSON.stringify({
      sessionId: CTXWIN_SESSION,
      seq: index + 1,
      id: `row-${index}`,
      role: index % 2 === 0 ? "user" : "assistant",
      parts: [{ type: "text", text: `Exported line ${index} mentions PLOVER-${index}.` }],
      createdAt: new Date(Date.UTC(2026, 10, 1, 0, 0, index)).toISOString(),
    }),
  );
}

describe("one session in several files", () => {
  it("imports the union when a shorter copy's file sorts first, and reports only what was stored", async () => {
    const lines = claudeCodeLines({ exchanges: 6, compactAfter: 3 });
    const folder = temporaryDirectory();
    writeLines(folder, "11111111-0000-4000-8000-000000000000.jsonl", lines.slice(0, 6));
    writeLines(folder, "good.jsonl", lines);
    const store = openScratchStore();

    const first = await importUnion(store, "claude-code", [folder]);
    expect(first.warnings).toEqual([]);
    expect(await sessionSnapshot(store, CLAUDE_SESSION)).toEqual(
      await cleanImport("claude-code", lines, CLAUDE_SESSION),
    );
    expect(first.sessionsUpdated).toBe(1);

    const again = await importUnion(store, "claude-code", [folder]);
    expect(again.rowsAdded).toBe(0);
    expect(again.rowsAlreadyPresent).toBe(first.rowsAdded);
  });

  it("gives the same session whichever file sorts first", async () => {
    const lines = claudeCodeLines({ exchanges: 5 });
    const snapshots: unknown[][] = [];
    for (const [short, long] of [
      ["a.jsonl", "b.jsonl"],
      ["b.jsonl", "a.jsonl"],
    ] as const) {
      const folder = temporaryDirectory();
      writeLines(folder, short, lines.slice(0, 7));
      writeLines(folder, long, lines);
      const store = openScratchStore();
      await importUnion(store, "claude-code", [folder]);
      snapshots.push(await sessionSnapshot(store, CLAUDE_SESSION));
    }
    expect(snapshots[0]).toEqual(snapshots[1]);
    expect(snapshots[0]).toEqual(await cleanImport("claude-code", lines, CLAUDE_SESSION));
  });

  it("follows a resumed Codex session whose new rollout starts with the earlier items, in either run order", async () => {
    const lines = codexLines({ exchanges: 6, compactAfter: 2 });
    const folder = temporaryDirectory();
    const earlier = writeLines(folder, "rollout-2026-11-20T09-00-00-a.jsonl", lines.slice(0, 12));
    const resumed = writeLines(folder, "rollout-2026-11-21T09-00-00-b.jsonl", lines);
    const expected = await cleanImport("codex", lines, CODEX_SESSION);

    for (const runs of [
      [earlier, resumed],
      [resumed, earlier],
    ]) {
      const store = openScratchStore();
      for (const file of runs) await importUnion(store, "codex", [file]);
      expect(await sessionSnapshot(store, CODEX_SESSION)).toEqual(expected);
      expect((await importUnion(store, "codex", [folder])).rowsAdded).toBe(0);
    }
  });

  it("merges two overlapping ctxwin exports of one session", async () => {
    const lines = ctxwinLines(30);
    const folder = temporaryDirectory();
    const later = writeLines(folder, "a-later.jsonl", lines.slice(10));
    const earlier = writeLines(folder, "b-earlier.jsonl", lines.slice(0, 20));
    const store = openScratchStore();
    const report = await importUnion(store, "ctxwin", [later, earlier]);
    expect(report.rowsAdded).toBe(30);
    expect(await sessionSnapshot(store, CTXWIN_SESSION)).toEqual(await cleanImport("ctxwin", lines, CTXWIN_SESSION));
  });

  it("gives a Codex compaction the same summary when its file starts at the compacted line", async () => {
    // Found by the property below (seed -840892220): the file holding the compaction's reply came
    // second, and the boundary took whichever text the first file allowed.
    const lines = codexLines({ exchanges: 3, compactAfter: 1 });
    const compacted = lines.findIndex((line) => line.includes('"type":"compacted"'));
    const folder = temporaryDirectory();
    const tail = writeLines(folder, "a-tail.jsonl", [lines[0]!, ...lines.slice(compacted)]);
    const head = writeLines(folder, "b-head.jsonl", lines.slice(0, compacted + 1));
    const store = openScratchStore();
    await importUnion(store, "codex", [tail]);
    await importUnion(store, "codex", [head]);
    const boundaries = (rows: unknown[]) => rows.filter((row) => JSON.stringify(row).includes("compaction-summary"));
    const clean = boundaries(await cleanImport("codex", lines, CODEX_SESSION));
    expect(clean).toHaveLength(1);
    expect(boundaries(await sessionSnapshot(store, CODEX_SESSION))).toEqual(clean);
  });

  it("still refuses a ctxwin export into a session that holds a different history", async () => {
    const store = openScratchStore();
    await store.append(CTXWIN_SESSION, [
      { id: "local-1", role: "user", parts: [{ type: "text", text: "a local session of the same name" }] },
    ]);
    const report = await importUnion(store, "ctxwin", [
      writeLines(temporaryDirectory(), "export.jsonl", ctxwinLines(4)),
    ]);
    expect(report.rowsAdded).toBe(0);
    expect(report.warnings.join("\n")).toMatch(/different history/);
  });
});

describe("property: any split of a transcript into overlapping files", () => {
  const directories: string[] = [];
  afterEach(() => {
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  const transcripts: Record<
    ImportFormat,
    { lines: (exchanges: number) => string[]; sessionId: string; header: number }
  > = {
    // With lines kept as raw rows (ADR 0066) and the header's facts (git branch, model).
    "claude-code": {
      lines: (exchanges) => claudeCodeLines({ exchanges, compactAfter: 1, extras: true }),
      sessionId: CLAUDE_SESSION,
      header: 0,
    },
    // A resumed rollout starts with the session's first line (session_meta), as Codex writes it.
    codex: {
      lines: (exchanges) => codexLines({ exchanges, compactAfter: 1, extras: true }),
      sessionId: CODEX_SESSION,
      header: 1,
    },
    ctxwin: { lines: (exchanges) => ctxwinLines(exchanges * 4), sessionId: CTXWIN_SESSION, header: 0 },
  };

  it("imported in any order, any number of times, gives the session of one clean import", async () => {
    const scenario = fc.record({
      format: fc.constantFrom<ImportFormat>("claude-code", "codex", "ctxwin"),
      exchanges: fc.integer({ min: 1, max: 5 }),
      cuts: fc.uniqueArray(fc.double({ min: 0.05, max: 0.95, noNaN: true }), { maxLength: 3 }),
      overlaps: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 4, maxLength: 4 }),
      names: fc.shuffledSubarray(["a", "b", "c", "d"], { minLength: 4, maxLength: 4 }),
      runs: fc.array(fc.shuffledSubarray([0, 1, 2, 3], { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ format, exchanges, cuts, overlaps, names, runs }) => {
        const { lines, sessionId, header } = transcripts[format];
        const all = lines(exchanges);
        const folder = mkdtempSync(path.join(os.tmpdir(), "ctxwin-import-split-"));
        directories.push(folder);
        const points = [0, ...cuts.map((cut) => Math.floor(cut * all.length)).sort((a, b) => a - b), all.length];
        const files = points.slice(1).map((end, index) => {
          const start = Math.max(header, points[index]! - overlaps[index]!);
          const segment = [...all.slice(0, header), ...all.slice(start, Math.max(end, start + 1))];
          return writeLines(folder, `${names[index]}.jsonl`, segment);
        });
        const store = createMemoryStore();
        // Runs of any subset of the files, in any order, then every file, forwards and backwards.
        const live = { live: true };
        for (const run of runs)
          for (const index of run) if (index < files.length) await importUnion(store, format, [files[index]!], live);
        await importUnion(store, format, files, live);
        expect((await importUnion(store, format, [...files].reverse(), live)).rowsAdded).toBe(0);
        const clean = await cleanImport(format, all, sessionId, live);
        const imported = (await sessionSnapshot(store, sessionId)).map(stripLateMark);
        // Each line once, none lost. Rows a run stored before their predecessors arrived come later
        // (marked importedLate), and the header names the first prompt that run saw (ADR 0049).
        expect(new Set(imported.map(idOf)).size).toBe(imported.length);
        expect(sortById(imported.filter(isContent))).toEqual(sortById(clean.filter(isContent)));
        expect(imported.filter((row) => !isContent(row))).toHaveLength(clean.filter((row) => !isContent(row)).length);
        // Run once over all the files (each run in any order), the import is exactly the clean one.
        const together = createMemoryStore();
        await importUnion(together, format, runs.length % 2 === 0 ? files : [...files].reverse(), live);
        expect(await sessionSnapshot(together, sessionId)).toEqual(clean);
      }),
      { numRuns: 60 },
    );
  });
});

describe("property: a parent and its sub-agent arriving in any order and any runs (ADR 0067, amended)", () => {
  const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
  const trees = {
    "claude-code": {
      folder: "claude-code-2.1.197-subagent",
      files: [
        "-home-dev-app/4c2e9b1a-6d3f-4e8a-9b7c-0a1b2c3d4e5f.jsonl",
        "-home-dev-app/4c2e9b1a-6d3f-4e8a-9b7c-0a1b2c3d4e5f/subagents/agent-a7f3c21.jsonl",
      ],
      parent: "claude-code:4c2e9b1a-6d3f-4e8a-9b7c-0a1b2c3d4e5f",
      child: "claude-code:4c2e9b1a-6d3f-4e8a-9b7c-0a1b2c3d4e5f/agent-a7f3c21",
    },
    codex: {
      folder: "codex-0.171.0-subagent",
      files: [
        "rollout-2026-12-04T11-00-00-01c0ffee-0000-7000-8000-000000000001.jsonl",
        "rollout-2026-12-04T10-59-59-01c0ffee-0000-7000-8000-000000000002.jsonl",
      ],
      parent: "codex:01c0ffee-0000-7000-8000-000000000001",
      child: "codex:01c0ffee-0000-7000-8000-000000000002",
    },
  } as const;

  async function treeOf(store: HistoryStore, tree: (typeof trees)[keyof typeof trees]): Promise<unknown> {
    return {
      sessions: (await store.sessions()).map((session) => [session.sessionId, session.parent]).sort(),
      parent: await sessionSnapshot(store, tree.parent),
      child: await sessionSnapshot(store, tree.child),
    };
  }

  it("the child in an earlier run than its parent ends in the tree of one clean import", async () => {
    const scenario = fc.record({
      format: fc.constantFrom<"claude-code" | "codex">("claude-code", "codex"),
      arrival: fc.shuffledSubarray([0, 1], { minLength: 2, maxLength: 2 }),
      importAfter: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 2, maxLength: 2 }),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ format, arrival, importAfter }) => {
        const tree = trees[format];
        const source = path.join(fixtures, tree.folder);
        const folder = temporaryDirectory();
        const store = createMemoryStore();
        // Files appear one by one; after each, zero to two imports naming the files there so far
        // (transcripts settled: a child whose parent is missing is imported on its own).
        const present: string[] = [];
        let alone = false;
        for (const [step, index] of arrival.entries()) {
          const file = path.join(folder, tree.files[index]!);
          mkdirSync(path.dirname(file), { recursive: true });
          cpSync(path.join(source, tree.files[index]!), file);
          // Settled for sure: a copy's mtime can be a fraction of a millisecond ahead of Date.now().
          utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
          present.push(file);
          for (let run = 0; run < importAfter[step]!; run += 1) await importUnion(store, format, present);
          if (step === 0)
            alone =
              (await store.session(tree.child)) !== undefined &&
              (await store.session(tree.child))?.parent === undefined;
        }
        const last = await importUnion(store, format, present);
        const childFirst = arrival[0] === 1 && importAfter[0]! > 0;
        const clean = createMemoryStore();
        await importUnion(clean, format, [source]);
        expect(await treeOf(store, tree)).toEqual(await treeOf(clean, tree));
        expect((await store.session(tree.child))?.parent?.sessionId).toBe(tree.parent);
        // The child stored alone is attached by the first import that sees the parent, once.
        if (childFirst) expect(alone).toBe(true);
        if (childFirst && importAfter[1] === 0) expect(last.childrenReattached).toBe(1);
        expect(last.warnings).toEqual([]);
      }),
      { numRuns: 40, examples: [[{ format: "codex", arrival: [1, 0], importAfter: [1, 0] }]] },
    );
  });
});

function stripLateMark(row: unknown): unknown {
  const { metadata, ...rest } = row as { metadata?: Record<string, unknown> };
  if (metadata?.["importedLate"] !== true) return row;
  const { importedLate: _late, ...others } = metadata;
  return Object.keys(others).length === 0 ? rest : { ...rest, metadata: others };
}

const idOf = (row: unknown) => (row as { id: string }).id;
const isContent = (row: unknown) => !idOf(row).endsWith("#session");

function sortById(rows: unknown[]): unknown[] {
  return [...rows].sort((a, b) => (idOf(a) < idOf(b) ? -1 : 1));
}
