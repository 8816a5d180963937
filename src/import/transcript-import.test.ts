/**
 * The Claude Code and Codex importers on fixture transcripts written from the formats' public
 * definitions: rows, paired tool calls, reasoning, compaction boundaries, sidechains, images,
 * long outputs, unknown and malformed lines; repeating, growing and rewriting files.
 */
import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderRowText } from "../core/row-text.js";
import type { StoredRow } from "../store/port.js";
import { importFiles } from "./import-files.js";
import { scratchStores } from "./test-support/scratch-stores.js";
import { allRows } from "./test-support/session-snapshot.js";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const CLAUDE = "claude-code:5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37";
const CODEX = "codex:0199f3a2-51c4-7e10-b8d2-4a6c9e2f1b05";
const { temporaryDirectory, openScratchStore } = scratchStores("ctxwin-transcripts-");
const freshStore = () => openScratchStore();

function copyFixture(name: string): string {
  const file = path.join(temporaryDirectory(), name);
  copyFileSync(path.join(fixtures, name), file);
  return file;
}

function toolParts(rows: StoredRow[]): Record<string, unknown>[] {
  return rows.flatMap((row) => row.parts.filter((part) => part.type === "dynamic-tool")) as Record<string, unknown>[];
}

/** Imports a copy of the fixture `name` into a fresh store. */
async function importFixture(format: "claude-code" | "codex", name: string) {
  const store = freshStore();
  const file = copyFixture(name);
  return { store, file, report: await importFiles({ store, format, paths: [file] }) };
}

/** The session's hidden first row names its source, its first prompt as the title, and its folder. */
function expectHeader(rows: StoredRow[], facts: { source: string; title: string; project: string }): void {
  expect(rows[0]?.meta).toMatchObject({ type: "imported-session", ...facts });
}

describe("claude-code import", () => {
  it("turns a session into rows with paired tools, reasoning, a sidechain and a compaction boundary", async () => {
    const { store, report } = await importFixture("claude-code", "claude-code-session.jsonl");
    expect(report).toMatchObject({ files: 1, sessionsUpdated: 1, malformedCount: 0 });
    // The informational system line and the future line type; summary/snapshot/queue lines are bookkeeping.
    expect(report.unknownLines).toBe(2);

    const rows = await allRows(store, CLAUDE);
    expectHeader(rows, {
      source: "claude-code",
      title: "Move the orders service to the new staging database.",
      project: "/home/dev/shop-api",
    });
    expect(rows[0]?.uiVisible).toBe(false);
    const tools = toolParts(rows);
    expect(tools.map((part) => [part["toolName"], part["state"]])).toEqual([
      ["Read", "output-available"],
      ["Bash", "output-error"],
      ["Task", "output-available"],
      ["Bash", "output-available"],
    ]);
    expect(tools[0]?.["output"]).toContain("port: 6543");
    expect(String(tools[3]?.["output"]).length).toBeGreaterThan(100_000);
    expect(rows.some((row) => row.parts.some((part) => part.type === "reasoning"))).toBe(true);
    expect(
      rows.filter((row) => (row.metadata as { sidechain?: boolean } | undefined)?.sidechain === true),
    ).toHaveLength(3);
    // An image is a file part holding the transcript's bytes; history and search show it as [image].
    const image = rows.flatMap((row) => row.parts).find((part) => part.type === "file") as
      { mediaType: string; url: string } | undefined;
    expect(image?.mediaType).toBe("image/png");
    expect(image?.url.startsWith("data:image/png;base64,iVBORw0KGgo")).toBe(true);
    expect(renderRowText(rows.find((row) => row.parts.includes(image as never))!)).toContain("[image]");

    const windows = (await store.windows(CLAUDE)).windows;
    expect(windows.map((window) => window.kind)).toEqual(["compaction", "start"]);
    const compactionRowFound = rows.find((row) => row.boundary?.kind === "compaction");
    expect(compactionRowFound?.parts[0]).toMatchObject({ type: "text" });
    expect(JSON.stringify(compactionRowFound)).toContain("staging database on db-stage-2");

    // Everything before the compaction stays searchable.
    const hits = await store.search(CLAUDE, { query: "6543", mode: "literal" });
    expect(hits.hits.length).toBeGreaterThan(0);
  });

  it("adds nothing the second time, follows a growing file, and survives a rewritten one", async () => {
    const store = freshStore();
    const file = copyFixture("claude-code-session.jsonl");
    const first = await importFiles({ store, format: "claude-code", paths: [file] });
    const again = await importFiles({ store, format: "claude-code", paths: [file] });
    expect(again.rowsAdded).toBe(0);
    expect(again.rowsAlreadyPresent).toBe(first.rowsAdded);

    const line = (uuid: string, text: string) =>
      JSON.stringify({
        type: "user",
        uuid,
        parentUuid: null,
        sessionId: "5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37",
        timestamp: "2026-11-02T10:00:00.000Z",
        cwd: "/home/dev/shop-api",
        message: { role: "user", content: text },
      }) + "\n";
    appendFileSync(file, line("u-0100", "Use port 6543 in the checklist."));
    const grown = await importFiles({ store, format: "claude-code", paths: [file] });
    expect(grown.rowsAdded).toBe(1);

    // Rewritten: same lines, reformatted and with a new line at the end.
    const rewritten = readFileSync(file, "utf8")
      .trimEnd()
      .split("\n")
      .map((text) => JSON.stringify(JSON.parse(text), null, 0))
      .join("\n");
    writeFileSync(file, `${rewritten}\n${line("u-0101", "And note the pool size.")}`);
    const afterRewrite = await importFiles({ store, format: "claude-code", paths: [file] });
    expect(afterRewrite.rowsAdded).toBe(1);
    const ids = (await allRows(store, CLAUDE)).map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("codex import", () => {
  it("turns a rollout into rows with paired calls, errors, reasoning and a compaction boundary", async () => {
    const { store, file, report } = await importFixture(
      "codex",
      "rollout-2026-11-03T14-00-00-0199f3a2-51c4-7e10-b8d2-4a6c9e2f1b05.jsonl",
    );
    expect(report.malformed).toEqual([{ file, line: 19, message: expect.stringMatching(/not JSON/) }]);
    expect(report.unknownLines).toBe(1);
    const rows = await allRows(store, CODEX);
    expectHeader(rows, {
      source: "codex",
      title: "Find why invoice totals are off by a cent.",
      project: "/home/dev/billing",
    });
    expect(rows[1]?.uiVisible).toBe(false);
    const tools = toolParts(rows);
    expect(tools.map((part) => [part["toolName"], part["state"]])).toEqual([
      ["shell", "output-available"],
      ["apply_patch", "output-available"],
      ["shell", "output-error"],
    ]);
    expect(rows.some((row) => row.parts.some((part) => part.type === "reasoning"))).toBe(true);
    expect(rows.some((row) => row.boundary?.kind === "compaction")).toBe(true);
    expect((await store.search(CODEX, { query: "half-even", mode: "literal" })).hits.length).toBeGreaterThan(0);
    expect((await importFiles({ store, format: "codex", paths: [file] })).rowsAdded).toBe(0);
  });
});

describe("source folders", () => {
  it("finds rollout files below a folder and reports a path that does not exist", async () => {
    const store = freshStore();
    const report = await importFiles({ store, format: "codex", paths: [fixtures, path.join(fixtures, "missing")] });
    // This folder's rollout, codex-0.171.0/ and the two of codex-0.171.0-subagent/.
    expect(report.files).toBe(4);
    expect(report.rowsAdded).toBeGreaterThan(5);
    expect(report.warnings).toEqual([`${path.join(fixtures, "missing")} does not exist.`]);
  });
});
