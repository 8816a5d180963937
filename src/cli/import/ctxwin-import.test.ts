/**
 * `ctxwin import` of ctxwin's own export: export → import → export gives the same rows, a second
 * import adds nothing, a grown export adds only its new rows, bad lines are reported as file:line
 * and the rest imports; the built binary does the same end to end.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { HistoryStore, StoredRow } from "../../store/port.js";
import { seedMixedHistory } from "../../tools/session-history/test-support/mixed-history.js";
import * as rows from "../../tools/session-history/test-support/history-rows.js";
import { exportSession } from "../history/export-session.js";
import { openScope } from "../history/history-queries.js";
import { importFiles } from "../../import/import-files.js";
import { claudeCodeProjectFolderName } from "../../import/project-sessions.js";
import { parseImportArguments } from "./import-command.js";
import { scratchStores } from "../../import/test-support/scratch-stores.js";
import { CTXWIN_BINARY } from "../test-support/run-ctxwin.js";
import { runCtxwinInProcess } from "../test-support/run-ctxwin-in-process.js";
import { CLAUDE_CODE_FIXTURE as fixture } from "../../import/test-support/claude-code-fixture.js";

vi.setConfig({ testTimeout: 60_000 });

const binary = CTXWIN_BINARY;
const { temporaryDirectory, openScratchStore: open } = scratchStores("ctxwin-import-");

async function exportText(store: HistoryStore, sessionId: string): Promise<string> {
  let text = "";
  await exportSession(await openScope({ store, sessionId, includeCleared: true }), {
    format: "jsonl",
    write: (chunk) => (text += chunk),
  });
  return text;
}

async function allRows(store: HistoryStore, sessionId: string): Promise<StoredRow[]> {
  return (await store.items(sessionId, { includeCleared: true, afterSeq: 0, limit: 1000 })).rows;
}

describe("ctxwin import (ctxwin format)", () => {
  it("round-trips export → import → export, and a second import adds nothing", async () => {
    const source = open(temporaryDirectory());
    await seedMixedHistory(source, "s1");
    const file = path.join(temporaryDirectory(), "s1.jsonl");
    writeFileSync(file, await exportText(source, "s1"));

    const target = open(temporaryDirectory());
    const first = await importFiles({ store: target, format: "ctxwin", paths: [file] });
    expect(first.rowsAdded).toBe((await allRows(source, "s1")).length);
    expect(first.malformedCount).toBe(0);
    expect(await exportText(target, "s1")).toBe(await exportText(source, "s1"));
    expect((await target.windows("s1", { includeCleared: true })).windows.length).toBe(
      (await source.windows("s1", { includeCleared: true })).windows.length,
    );

    const second = await importFiles({ store: target, format: "ctxwin", paths: [file] });
    expect(second.rowsAdded).toBe(0);
    expect(second.rowsAlreadyPresent).toBe(first.rowsAdded);
    expect(await allRows(target, "s1")).toHaveLength(first.rowsAdded);

    // Into the store the export came from: also nothing.
    const back = await importFiles({ store: source, format: "ctxwin", paths: [file] });
    expect(back.rowsAdded).toBe(0);
  });

  it("imports only the rows a grown export added", async () => {
    const source = open(temporaryDirectory());
    await source.append("g", [rows.userText("first question"), rows.assistantText("first answer")]);
    const file = path.join(temporaryDirectory(), "g.jsonl");
    writeFileSync(file, await exportText(source, "g"));
    const target = open(temporaryDirectory());
    expect((await importFiles({ store: target, format: "ctxwin", paths: [file] })).rowsAdded).toBe(2);

    await source.append("g", [rows.userText("second question")]);
    writeFileSync(file, await exportText(source, "g"));
    const grown = await importFiles({ store: target, format: "ctxwin", paths: [file] });
    expect(grown).toMatchObject({ rowsAdded: 1, rowsAlreadyPresent: 2 });
    expect((await allRows(target, "g")).map((row) => row.id)).toEqual(
      (await allRows(source, "g")).map((row) => row.id),
    );
  });

  it("reports malformed lines as file:line and imports the rest", async () => {
    const source = open(temporaryDirectory());
    await source.append("m", [rows.userText("kept one"), rows.assistantText("kept two")]);
    const file = path.join(temporaryDirectory(), "m.jsonl");
    const [line1, line2] = (await exportText(source, "m")).trimEnd().split("\n");
    writeFileSync(
      file,
      `${line1}\n{not json\n[1,2]\n${JSON.stringify({ sessionId: "m", id: "x", role: "robot", parts: [] })}\n${line2}\n`,
    );
    const target = open(temporaryDirectory());
    const report = await importFiles({ store: target, format: "ctxwin", paths: [file] });
    expect(report.rowsAdded).toBe(2);
    expect(report.malformed.map((entry) => entry.line)).toEqual([2, 3, 4]);
    expect(report.malformed.every((entry) => entry.file === file)).toBe(true);
    expect(report.malformed[2]?.message).toMatch(/role/);
  });

  it("keeps a store whose session diverged from the file untouched", async () => {
    const target = open(temporaryDirectory());
    await target.append("d", [rows.userText("the store's own history")]);
    const other = open(temporaryDirectory());
    await other.append("d", [rows.userText("an unrelated export")]);
    const file = path.join(temporaryDirectory(), "d.jsonl");
    writeFileSync(file, await exportText(other, "d"));
    const report = await importFiles({ store: target, format: "ctxwin", paths: [file] });
    expect(report.rowsAdded).toBe(0);
    expect(report.warnings[0]).toMatch(/session 'd'.*different history/);
    expect(await allRows(target, "d")).toHaveLength(1);
  });

  it("takes the format name as optional", () => {
    expect(parseImportArguments(["a.jsonl", "b.jsonl"])).toEqual({ format: "ctxwin", paths: ["a.jsonl", "b.jsonl"] });
    expect(parseImportArguments(["ctxwin", "a.jsonl"])).toEqual({ format: "ctxwin", paths: ["a.jsonl"] });
    expect(() => parseImportArguments(["ctxwin"])).toThrow(/at least one exported/);
    expect(parseImportArguments(["codex"], { home: "/h" })).toEqual({ format: "codex", paths: ["/h/.codex/sessions"] });
    expect(parseImportArguments(["claude-code"], { home: "/h" })).toEqual({
      format: "claude-code",
      paths: ["/h/.claude/projects"],
    });
  });

  it("works from the built binary, twice, with --json", async () => {
    expect(existsSync(binary)).toBe(true);
    const source = open(temporaryDirectory());
    await seedMixedHistory(source, "s1");
    const file = path.join(temporaryDirectory(), "s1.jsonl");
    writeFileSync(file, await exportText(source, "s1"));
    appendFileSync(file, "{broken\n");
    const project = temporaryDirectory();
    const run = () =>
      spawnSync(process.execPath, [binary, "import", file, "--dir", project, "--json"], { encoding: "utf8" });
    const first = run();
    expect(first.stderr).toBe("");
    const report = JSON.parse(first.stdout) as { rowsAdded: number; malformed: { file: string; line: number }[] };
    expect(report.rowsAdded).toBeGreaterThan(5);
    expect(report.malformed).toEqual([
      expect.objectContaining({ file, line: (await exportText(source, "s1")).split("\n").length }),
    ]);
    expect(first.status).toBe(1);
    const second = JSON.parse(run().stdout) as { rowsAdded: number };
    expect(second.rowsAdded).toBe(0);
    const human = spawnSync(process.execPath, [binary, "import", "ctxwin", "--dir", project], { encoding: "utf8" });
    expect(human.status).toBe(2);
    expect(human.stderr.trimEnd().split("\n")).toHaveLength(1);
  });
});

const CLAUDE = "claude-code:5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37";

function copyClaudeFixture(): string {
  const file = path.join(temporaryDirectory(), "claude-code-session.jsonl");
  copyFileSync(fixture, file);
  return file;
}

describe("round trip", () => {
  it("import → export → import adds nothing, into the same store or a fresh one", async () => {
    const store = open();
    const first = await importFiles({ store, format: "claude-code", paths: [copyClaudeFixture()] });
    const text = await exportText(store, CLAUDE);
    const file = path.join(temporaryDirectory(), "export.jsonl");
    writeFileSync(file, text);
    expect((await importFiles({ store, format: "ctxwin", paths: [file] })).rowsAdded).toBe(0);
    const fresh = open();
    expect((await importFiles({ store: fresh, format: "ctxwin", paths: [file] })).rowsAdded).toBe(first.rowsAdded);
    expect((await importFiles({ store: fresh, format: "ctxwin", paths: [file] })).rowsAdded).toBe(0);
    expect((await allRows(fresh, CLAUDE)).map((row) => row.id)).toEqual(
      (await allRows(store, CLAUDE)).map((row) => row.id),
    );
  });
});

describe("paths that are not files", () => {
  it("a named pipe, a device or a socket is refused unread: exit code 1 naming it, the other paths import", async () => {
    const folder = temporaryDirectory();
    const fifo = path.join(folder, "pipe.jsonl");
    execFileSync("mkfifo", [fifo]);
    const socketPath = path.join(folder, "socket.jsonl");
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const transcript = path.join(folder, "5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37.jsonl");
      copyFileSync(fixture, transcript);
      const result = await runCtxwinInProcess(
        ["import", "claude-code", fifo, "/dev/null", socketPath, transcript, "--dir", folder],
        { cwd: folder },
      );
      expect(result.status).toBe(1);
      expect(result.stdout).toContain(
        `warning: ${fifo} is a named pipe (FIFO), not a transcript file; it was not read.`,
      );
      expect(result.stdout).toContain(
        "warning: /dev/null is a character device, not a transcript file; it was not read.",
      );
      expect(result.stdout).toContain(`warning: ${socketPath} is a socket, not a transcript file; it was not read.`);
      expect(result.stdout).toMatch(/^Imported [1-9]\d* rows into 1 sessions from 1 claude-code files/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("--project", () => {
  it("imports only the project's Claude Code sessions from the home folder; with paths it is a usage error", async () => {
    const home = temporaryDirectory();
    const project = path.join(home, "work", "shop-api");
    for (const [folder, sessionId] of [
      [project, "11111111-1111-4111-8111-111111111111"],
      [`${project}-old`, "22222222-2222-4222-8222-222222222222"],
    ] as const) {
      const transcripts = path.join(home, ".claude", "projects", claudeCodeProjectFolderName(folder));
      mkdirSync(transcripts, { recursive: true });
      writeFileSync(
        path.join(transcripts, `${sessionId}.jsonl`),
        readFileSync(fixture, "utf8").replaceAll("5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37", sessionId),
      );
    }
    mkdirSync(project, { recursive: true });
    const previousHome = process.env["HOME"];
    process.env["HOME"] = home;
    try {
      const result = await runCtxwinInProcess(["import", "claude-code", "--project", project, "--dir", project], {
        cwd: project,
      });
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/into 1 sessions from 1 claude-code files/);
      const refused = await runCtxwinInProcess(
        ["import", "claude-code", path.join(home, ".claude"), "--project", project],
        { cwd: project },
      );
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain("--project imports the project's sessions from where the CLI keeps them");
    } finally {
      if (previousHome === undefined) delete process.env["HOME"];
      else process.env["HOME"] = previousHome;
    }
    const store = open(project);
    expect((await store.sessions()).map((session) => session.sessionId)).toEqual([
      "claude-code:11111111-1111-4111-8111-111111111111",
    ]);
  });
});
