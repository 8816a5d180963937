/**
 * End to end: `ctxwin demo` as the built binary in a child process. With the defaults it explores
 * the package itself; on a generated folder it answers about that folder, which shows that nothing
 * in the answer is fixed in advance. The refusals and the `ctxwin history` checks of the stored
 * sessions run through the same command tree in this process (run-ctxwin-in-process.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { runCtxwinInProcess } from "../test-support/run-ctxwin-in-process.js";
import { runCtxwin } from "../test-support/run-ctxwin.js";
import type { DemoReport } from "./run-demo.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const temporary: string[] = [];

vi.setConfig({ testTimeout: 120_000 });

function scratch(prefix: string): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), prefix));
  temporary.push(directory);
  return directory;
}

const ctxwin = runCtxwin;

afterAll(() => {
  for (const directory of temporary) rmSync(directory, { recursive: true, force: true });
});

describe("ctxwin demo", () => {
  it("with the defaults: ≥ 2 warnings, ≥ 3 rollovers, each request under the ceiling, the first file's detail recovered via session_history", async () => {
    const project = scratch("ctxwin-demo-");
    const result = await ctxwin(["demo", "--json"], { cwd: project });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as DemoReport;

    expect(report.status).toBe("completed");
    expect(report.database).toBe(path.join(project, ".ctxwin", "ctxwin.db"));
    expect(report.contextLimit).toBe(16_000);
    expect(report.warnings).toBeGreaterThanOrEqual(2);
    expect(report.notesWritten).toBeGreaterThanOrEqual(2);
    expect(report.rollovers.length).toBeGreaterThanOrEqual(3);
    expect(report.windows).toBe(report.rollovers.length + 1);
    expect(report.peakRequestTokens).toBeLessThanOrEqual(report.hardCeiling!);
    // ctxwin's own estimate of the largest request, beside the model's count: the one checked against the ceiling.
    expect(report.peakEstimatedTokens).toBeGreaterThan(0);
    expect(report.peakEstimatedTokens).toBeLessThanOrEqual(report.hardCeiling!);
    expect(report.recoveries).toBeGreaterThanOrEqual(1);

    // Continuity (issue 14): the notes flush before each mid-turn rollover leaves nothing to re-read,
    // and every rollover that stopped the exploration carried its task into the new window.
    expect(report.notesFlushes).toBeGreaterThanOrEqual(1);
    expect(report.filesReReadAfterRollover).toBe(0);
    expect(report.filesRead).toBe(32);
    const midStream = report.rollovers.filter((rollover) => rollover.reason === "mid-stream");
    expect(report.carried.length).toBe(midStream.length);
    expect(report.carried[0]).toMatchObject({
      windowId: report.rollovers[0]!.windowId,
      itemId: "1",
      input: expect.stringMatching(/^Explore the folder /),
    });
    expect(report.carried[0]!.calls).toBeGreaterThan(0);

    // The question was about the first file read; the expected text is that file's line on disk.
    const { firstFile, line, expected, answer, correct } = report.recovered;
    expect(firstFile).not.toBeNull();
    const actualLine = readFileSync(path.join(repositoryRoot, firstFile!), "utf8").split("\n")[line! - 1];
    expect(expected).toBe(actualLine);
    expect(answer).toContain(`"${actualLine}"`);
    expect(answer).toContain("session_history");
    expect(correct).toBe(true);

    // The session is there to inspect with the commands the report prints.
    const windows = await runCtxwinInProcess(["history", "windows", report.sessionId, "--json"], { cwd: project });
    expect(windows.status).toBe(0);
    expect((JSON.parse(windows.stdout) as unknown[]).length).toBe(report.windows);
    expect(report.inspect[0]).toBe(`npx ctxwin history windows ${report.sessionId}`);

    // The report's timeline: a point per request, a window per rollover, the warnings marked.
    expect(report.timeline.points).toHaveLength(report.requests);
    expect(report.timeline.windows).toHaveLength(report.windows);
    expect(report.timeline.marks.filter((mark) => mark.kind === "warning")).toHaveLength(report.warnings);
    expect(report.timeline.marks.filter((mark) => mark.kind === "rollover")).toHaveLength(report.rollovers.length);
    expect(Math.max(...report.timeline.points.map((point) => point.tokens))).toBe(report.peakRequestTokens);
  });

  it("ends its printed report with the context timeline chart", async () => {
    const project = scratch("ctxwin-demo-chart-");
    const result = await ctxwin(["demo", "--files", "12"], { cwd: project });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^ {2}↳ carried into w:\d+: the task \(item 1\) "Explore the folder /m);
    expect(result.stdout).toMatch(
      /^ {2}files read {9}12, re-read after a rollover: 0 \(\d+ notes flushes before rollovers\)$/m,
    );
    expect(result.stdout).toMatch(
      /^ {2}requests {11}\d+, the largest [\d,]+ tokens by ctxwin's estimate, [\d,]+ by the model's count \(hard ceiling 12,000, limit 16,000\)$/m,
    );
    const chart = result.stdout
      .slice(result.stdout.lastIndexOf("\nContext timeline of ") + 1)
      .trimEnd()
      .split("\n");
    expect(chart[0]).toMatch(/^Context timeline of demo-\S+: \d+ windows?, \d+ requests?/);
    expect(chart.length).toBeGreaterThanOrEqual(2);
    expect(chart.slice(1).every((line) => /^#\d+ w:\d+\*? /.test(line))).toBe(true);
    expect(chart.at(-1)).toMatch(/active$/);
  });

  it("answers about another folder (--path): the recovered line comes from that folder's first file", async () => {
    const folder = scratch("ctxwin-demo-folder-");
    const planted =
      "The calibration constant of the north reservoir gauge is 7.3142 per millibar, recorded by Ines Okafor.";
    const filler = (topic: string, lines: number) =>
      Array.from(
        { length: lines },
        (_, index) => `${topic} note ${index + 1}: ${"lorem ipsum dolor sit amet ".repeat(3)}`,
      ).join("\n");
    writeFileSync(
      path.join(folder, "README.md"),
      `# Reservoir field notes\n\nShort intro.\n${planted}\n${filler("intro", 30)}\n`,
    );
    mkdirSync(path.join(folder, "logs"));
    for (let index = 0; index < 30; index += 1)
      writeFileSync(
        path.join(folder, "logs", `day-${String(index).padStart(2, "0")}.txt`),
        `Day ${index}\n${filler(`day ${index}`, 60)}\n`,
      );
    const project = scratch("ctxwin-demo-project-");

    const result = await ctxwin(["demo", "--json", "--path", folder, "--dir", project], { cwd: os.tmpdir() });
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout) as DemoReport;
    expect(report.status).toBe("completed");
    expect(report.rollovers.length).toBeGreaterThanOrEqual(1);
    expect(report.recovered.firstFile).toBe("README.md");
    expect(report.recovered.line).toBe(4);
    expect(report.recovered.answer).toContain(planted);
    expect(report.recovered.correct).toBe(true);
  });

  it("--subagents: a sub-agent rolls over in its own session, and the parent quotes a file only it read from its history", async () => {
    const folder = scratch("ctxwin-demo-subagents-");
    const filler = (topic: string, lines: number) =>
      Array.from(
        { length: lines },
        (_, index) => `${topic} note ${index + 1}: ${"lorem ipsum dolor sit amet ".repeat(3)}`,
      ).join("\n");
    writeFileSync(path.join(folder, "README.md"), `# Station overview\n\n${filler("intro", 40)}\n`);
    for (let index = 0; index < 6; index += 1)
      writeFileSync(
        path.join(folder, `station-${index}.md`),
        `# Station ${index}\n${filler(`station ${index}`, 50)}\n`,
      );
    mkdirSync(path.join(folder, "logs"));
    const planted =
      "Pump 4 was recalibrated to 2.718 bar by Aino Virtanen after the spring flood, and the intake screen at the north weir was replaced the same week.";
    writeFileSync(path.join(folder, "logs", "day-00.txt"), `Day 0\nShort.\n${planted}\n${filler("day 0", 60)}\n`);
    for (let index = 1; index < 14; index += 1)
      writeFileSync(
        path.join(folder, "logs", `day-${String(index).padStart(2, "0")}.txt`),
        `Day ${index}\n${filler(`day ${index}`, 60)}\n`,
      );
    const project = scratch("ctxwin-demo-subagents-project-");

    const result = await ctxwin(["demo", "--json", "--subagents", "--files", "6", "--path", folder, "--dir", project], {
      cwd: os.tmpdir(),
    });
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout) as DemoReport;
    expect(report.status).toBe("completed");
    expect(report.recovered.correct).toBe(true);
    const subagent = report.subagent!;
    expect(subagent).toMatchObject({
      agent: "explorer",
      folder: "logs",
      filesRead: 10,
      file: "day-00.txt",
      line: 3,
      expected: planted,
      readChildHistory: true,
      correct: true,
    });
    expect(subagent.sessionId).toMatch(new RegExp(`^${report.sessionId}/explorer-`));
    expect(subagent.rollovers).toBeGreaterThanOrEqual(1);
    expect(subagent.windows).toBe(subagent.rollovers + 1);
    expect(subagent.answer).toContain(`"${planted}"`);
    expect(subagent.answer).toContain(`of session ${subagent.sessionId}`);
    expect(report.inspect).toContain(
      `npx ctxwin history windows ${subagent.sessionId} --dir ${JSON.stringify(project)}   # the sub-agent's own session`,
    );

    // The child's windows are its own: `ctxwin history` shows them under its id.
    const windows = await runCtxwinInProcess(["history", "windows", subagent.sessionId!, "--json", "--dir", project], {
      cwd: os.tmpdir(),
    });
    expect(windows.status).toBe(0);
    expect((JSON.parse(windows.stdout) as unknown[]).length).toBe(subagent.windows);
  });

  it("without --subagents the report has no sub-agent part", async () => {
    const project = scratch("ctxwin-demo-plain-");
    const result = await ctxwin(["demo", "--json", "--files", "3", "--context-limit", "40000"], { cwd: project });
    expect(result.status).toBe(0);
    expect((JSON.parse(result.stdout) as DemoReport).subagent).toBeUndefined();
  });

  it("refuses bad flags with one line on stderr", async () => {
    const project = scratch("ctxwin-demo-flags-");
    for (const args of [
      ["demo", "--context-limit", "12k"],
      ["demo", "--context-limit", "11999"],
      ["demo", "--files", "0"],
      ["demo", "--path", path.join(project, "missing")],
      ["demo", "--no-such-flag"],
    ]) {
      const result = await runCtxwinInProcess(args, { cwd: project });
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/^ctxwin demo: /);
      expect(result.stderr.trimEnd().split("\n"), args.join(" ")).toHaveLength(1);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
