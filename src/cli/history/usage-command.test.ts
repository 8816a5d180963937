import { rmSync } from "node:fs";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Timeline } from "../../core/timeline/timeline-types.js";
import { TIMELINE_FIXTURE_MARK_KINDS, writeTimelineFixture } from "../../store/test-support/timeline-fixture.js";
import { stepMetadata, type StepUsage } from "../../core/rollover/step-usage.js";
import { formatUsd } from "../../core/chart/format-usd.js";
import { renderTimelineChart, wantsUnicode } from "../terminal/timeline-chart.js";
import { registerHistoryCommand } from "./history-command.js";
import { seededProject } from "../test-support/seeded-project.js";

let project: string;

beforeAll(async () => {
  // Two requests to a priced model, the second mostly read from the provider's cache.
  const step = (usage: StepUsage) => ({
    role: "assistant" as const,
    parts: [{ type: "text" as const, text: "ok" }],
    metadata: stepMetadata({ usage, model: "anthropic.messages:claude-sonnet-4-5", contextLimit: 200_000 }),
  });
  project = await seededProject("ctxwin-usage-cli-", async (store) => {
    await writeTimelineFixture({ store, sessionId: "timeline" });
    await store.append("cached", [
      { role: "user", parts: [{ type: "text", text: "Read the repository." }] },
      step({ inputTokens: 10_000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 9_900 }),
      step({ inputTokens: 10_500, outputTokens: 100, cacheReadTokens: 9_900, cacheWriteTokens: 500 }),
    ]);
  });
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

/** Runs `ctxwin history …` in process and collects what it writes. */
async function history(args: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  let stdout = "";
  let stderr = "";
  const program = new Command("ctxwin").exitOverride();
  registerHistoryCommand({
    program,
    output: { stdout: (chunk) => (stdout += chunk), stderr: (chunk) => (stderr += chunk) },
  });
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
    expect(lines[tableStart]).toMatch(
      /^window\s+kind\s+requests\s+peak tokens\s+warning at\s+rolled over at\s+rows\s+tool output\s+cached\s+cost$/,
    );
    // The fixture's model has no public price and its provider reported no cache: 0%, cost unknown.
    expect(lines[tableStart + 1]).toMatch(/^w:0\s+start\s+5\s+7,100\s+6,300 #5\s+7,100 #8\s+7\s+\d+\s+0%\s+-$/);
    expect(lines[tableStart + 3]).toMatch(/^w:13\s+compaction\s+1\s+1,200\s+-\s+-\s+2\s+0\s+0%\s+-$/);
    expect(lines.at(-1)).toBe(
      "Input of 12 requests: 49,000 tokens, 0% read from the cache (0), 0 written to it; " +
        "480 output tokens; cost unknown (no public price for a model of these requests: tokens only).",
    );
  });

  it("shows the share of each window's input read from the provider's cache and its estimated cost", async () => {
    const { stdout } = await history(["usage", "cached"]);
    const lines = stdout.trimEnd().split("\n");
    // 9,900 of 20,500 input tokens read from the cache; Claude Sonnet 4.5's public prices.
    const usd = (100 * 3 + 9_900 * 3.75 + 100 * 15 + (100 * 3 + 9_900 * 0.3 + 500 * 3.75 + 100 * 15)) / 1e6;
    expect(formatUsd(usd)).toBe("$0.0456");
    expect(lines).toContainEqual(expect.stringMatching(/^w:0\s+start\s+2\s+10,500\s+-\s+-\s+3\s+0\s+48%\s+\$0\.0456$/));
    expect(lines.at(-1)).toBe(
      "Input of 2 requests: 20,500 tokens, 48% read from the cache (9,900), 10,400 written to it; " +
        "200 output tokens; estimated cost $0.0456 ($0.0645 without a cache).",
    );
    const json = JSON.parse((await history(["usage", "cached", "--json"])).stdout) as Timeline;
    expect(json.points.map((point) => [point.cacheReadTokens, point.cacheWriteTokens])).toEqual([
      [0, 9_900],
      [9_900, 500],
    ]);
    expect(json.points[1]!.costUsd).toBeCloseTo((100 * 3 + 9_900 * 0.3 + 500 * 3.75 + 100 * 15) / 1e6, 12);
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
    expect(all.marks.map((mark) => mark.kind)).toEqual(TIMELINE_FIXTURE_MARK_KINDS);
    const every = JSON.parse((await history(["usage", "timeline", "--json", "--windows", "all"])).stdout) as Timeline;
    expect(every).toEqual(all);
    const newest = JSON.parse((await history(["usage", "timeline", "--json", "--windows", "2"])).stdout) as Timeline;
    expect(newest.windows.map((window) => window.detailed)).toEqual([false, false, false, true, true]);
    expect(newest.points.map((point) => point.seq)).toEqual([17, 18, 20, 24]);
  });

  it("says how many windows it read when it did not read them all", async () => {
    const { stdout } = await history(["usage", "timeline", "--windows", "1"]);
    expect(stdout.split("\n")[0]).toContain(
      "(the newest 1 of 5 windows read request by request; --windows all reads every one)",
    );
    expect(stdout).toMatch(/^#1 w:0\s+\(not read\)\s+rolled over at 7,100 \(on-send\)$/m);
  });

  it("fails in one line for an unknown session", async () => {
    const { stdout, stderr, exitCode } = await history(["usage", "nobody"]);
    expect(stdout).toBe("");
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(/^ctxwin history: Unknown session 'nobody'/);
  });
});
