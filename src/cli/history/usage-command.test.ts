import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Timeline } from "../../core/timeline/timeline-types.js";
import { openStore } from "../../store/open-store.js";
import { writeTimelineFixture } from "../../store/test-support/timeline-fixture.js";
import { renderTimelineChart, wantsUnicode } from "../terminal/timeline-chart.js";
import { registerHistoryCommand } from "./history-command.js";

let project: string;

beforeAll(async () => {
  project = mkdtempSync(path.join(os.tmpdir(), "ctxwin-usage-cli-"));
  const store = openStore({ directory: project });
  await writeTimelineFixture({ store, sessionId: "timeline" });
  await store.close();
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

/** Runs `ctxwin history …` in process and collects what it writes. */
async function history(args: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  let stdout = "";
  let stderr = "";
  const program = new Command("ctxwin").exitOverride();
  registerHistoryCommand({ program, output: { stdout: (chunk) => (stdout += chunk), stderr: (chunk) => (stderr += chunk) } });
  const previous = process.exitCode;
  process.exitCode = 0;
  try {
    await program.parseAsync(["node", "ctxwin", "history", ...args, "--dir", project]);
    return { stdout, stderr, exitCode: Number(process.exitCode ?? 0) };
  } finally {
    process.exitCode = previous;
  }
}

describe("ctxwin history usage", () => {
  it("charts each window with a sparkline and tabulates requests, peak, warning, rollover, rows and tool output", async () => {
    const { stdout, stderr, exitCode } = await history(["usage", "timeline"]);
    expect(stderr).toBe("");
    expect(exitCode).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toContain("Context timeline of timeline: 5 windows, 12 requests");
    expect(lines[0]).toContain("limit 10,000");
    expect(lines[1]).toMatch(/^#1 w:0 /);
    expect(lines[1]).toMatch(/peak 7,100 \/ 10,000 \(71%\)/);
    expect(lines[1]).toMatch(/warned at 6,300/);
    expect(lines[1]).toMatch(/rolled over at 7,100 \(on-send\)/);
    expect(lines[5]).toMatch(/^#5 w:21\* .*active/);
    const tableStart = lines.indexOf("") + 1;
    expect(lines[tableStart]).toMatch(/^window\s+kind\s+requests\s+peak tokens\s+warning at\s+rolled over at\s+rows\s+tool output$/);
    expect(lines[tableStart + 1]).toMatch(/^w:0\s+start\s+5\s+7,100\s+6,300 #5\s+7,100 #8\s+7\s+\d+$/);
    expect(lines[tableStart + 3]).toMatch(/^w:13\s+compaction\s+1\s+1,200\s+-\s+-\s+2\s+0$/);
  });

  it("draws plain ASCII with --ascii and block characters otherwise", async () => {
    const ascii = await history(["usage", "timeline", "--ascii"]);
    expect(ascii.stdout).toMatch(/^[\x20-\x7e\n]*$/);
    const sparkline = /^#1 w:0\s+(\S+)/m.exec(ascii.stdout)?.[1];
    // 2,000 / 5,200 / 6,300 / 6,600 / 7,100 of a 10,000 limit, on eight levels (each level an eighth).
    expect(sparkline).toBe(".=+++");
    const timeline = JSON.parse((await history(["usage", "timeline", "--json"])).stdout) as Timeline;
    expect(renderTimelineChart(timeline).split("\n")[1]).toMatch(/^#1 w:0\s+▂▅▆▆▆\s/);
  });

  it("chooses Unicode from the locale", () => {
    expect(wantsUnicode({ env: { LANG: "en_US.UTF-8" } })).toBe(true);
    expect(wantsUnicode({ env: { LC_ALL: "C", LANG: "en_US.UTF-8" } })).toBe(false);
    expect(wantsUnicode({ env: {} })).toBe(false);
  });

  it("prints the whole timeline as JSON with --json, and reads only the newest windows with --windows", async () => {
    const all = JSON.parse((await history(["usage", "timeline", "--json"])).stdout) as Timeline;
    expect(all.points).toHaveLength(12);
    expect(all.marks.map((mark) => mark.kind)).toEqual(["warning", "notes", "rollover", "compaction", "clear", "warning", "flush", "notes", "rollover"]);
    const every = JSON.parse((await history(["usage", "timeline", "--json", "--windows", "all"])).stdout) as Timeline;
    expect(every).toEqual(all);
    const newest = JSON.parse((await history(["usage", "timeline", "--json", "--windows", "2"])).stdout) as Timeline;
    expect(newest.windows.map((window) => window.detailed)).toEqual([false, false, false, true, true]);
    expect(newest.points.map((point) => point.seq)).toEqual([17, 18, 20, 24]);
  });

  it("says how many windows it read when it did not read them all", async () => {
    const { stdout } = await history(["usage", "timeline", "--windows", "1"]);
    expect(stdout.split("\n")[0]).toContain("(the newest 1 of 5 windows read request by request; --windows all reads every one)");
    expect(stdout).toMatch(/^#1 w:0\s+\(not read\)\s+rolled over at 7,100 \(on-send\)$/m);
  });

  it("fails in one line for an unknown session", async () => {
    const { stdout, stderr, exitCode } = await history(["usage", "nobody"]);
    expect(stdout).toBe("");
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/^ctxwin history: Unknown session 'nobody'/);
  });
});
