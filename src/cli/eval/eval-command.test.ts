/**
 * `ctxwin eval`: the offline demo run with its table and resumption as the built binary in a child
 * process; the page, the report, the data suite and every bad input or fault (one line on stderr)
 * through the same command tree in this process (run-ctxwin-in-process.ts), with no API keys in
 * the environment unless given.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { writeLocomoFixture } from "../../eval/test-support/locomo-fixture.js";
import { runCtxwinInProcess } from "../test-support/run-ctxwin-in-process.js";
import { runCtxwin } from "../test-support/run-ctxwin.js";
import { closedPort } from "../../session/test-support/fake-provider-server.js";
import { scratchFolders } from "../../../test/scratch-folders.js";

vi.setConfig({ testTimeout: 240_000 });

const scratchParent = scratchFolders("ctxwin-eval-cli-");

/**
 * A project folder one level inside its own temporary folder: nothing beside it can be taken for
 * a LoCoMo file, whatever the machine's temporary folder holds.
 */
function scratch(): string {
  const folder = path.join(scratchParent(), "project");
  fs.mkdirSync(folder);
  return folder;
}

const lines = (text: string) => text.split("\n").filter((line) => line.length > 0);
const tableRows = (stdout: string) => lines(stdout).filter((line) => /^(continuity|needle|recall-qa)\s/.test(line));

describe("ctxwin eval", () => {
  it("--model demo --limit 2 runs offline, writes a line per item, prints the table; --resume then runs nothing", async () => {
    const folder = scratch();
    const run = await runCtxwin(["eval", "--model", "demo", "--limit", "2", "--out", "results.jsonl"], { cwd: folder });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("skipped suite recall-qa (no --data file)");
    expect(run.stderr).toMatch(
      /12 runs \(4 items × rollover, compact, off\) on demo .*context limit 16,000: about [\d,]+ input and [\d,]+ output tokens, about \$0\.00\./,
    );
    expect(lines(run.stdout)[0]).toMatch(
      /^suite\s+strategy\s+items\s+score\s+evidence\s+failed\s+blocked\s+input tok\s+output tok\s+cost\s+wall s\s+rollovers\s+compactions\s+history calls$/,
    );
    const rows = tableRows(run.stdout).map((line) => line.split(/\s{2,}/).slice(0, 3));
    expect(rows).toEqual([
      ["continuity", "rollover", "2"],
      ["continuity", "compact", "2"],
      ["continuity", "off", "2"],
      ["needle", "rollover", "2"],
      ["needle", "compact", "2"],
      ["needle", "off", "2"],
    ]);
    const file = lines(fs.readFileSync(path.join(folder, "results.jsonl"), "utf8"));
    expect(file).toHaveLength(13);
    expect(JSON.parse(file[0]!)).toMatchObject({
      type: "run",
      model: "demo (ctxwin's scripted eval model)",
      contextLimit: 16_000,
      seed: 33,
    });

    const resumed = await runCtxwinInProcess(
      ["eval", "--model", "demo", "--limit", "2", "--out", "results.jsonl", "--resume"],
      { cwd: folder },
    );
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toMatch(/^0 runs \(4 items × rollover, compact, off, 12 already done\)/m);
    expect(tableRows(resumed.stdout)).toEqual(tableRows(run.stdout));

    const again = await runCtxwinInProcess(["eval", "--model", "demo", "--limit", "2", "--out", "results.jsonl"], {
      cwd: folder,
    });
    expect(again.status).toBe(1);
    expect(again.stderr).toBe(
      "ctxwin eval: results.jsonl already holds results: pass --resume to continue that run, or another --out.\n",
    );
  });

  it("--html writes the run's page; --report prints a results file's table and page without running", async () => {
    const folder = scratch();
    const run = await runCtxwinInProcess(
      [
        "eval",
        "--model",
        "demo",
        "--suite",
        "needle",
        "--limit",
        "1",
        "--out",
        "needle.jsonl",
        "--html",
        "needle.html",
      ],
      { cwd: folder },
    );
    expect(run.status).toBe(0);
    expect(lines(run.stdout).slice(-2)).toEqual(["results: needle.jsonl", "page: needle.html"]);
    const page = fs.readFileSync(path.join(folder, "needle.html"), "utf8");
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('<section data-suite="needle">');
    for (const strategy of ["rollover", "compact", "off"]) expect(page).toContain(`<rect data-strategy="${strategy}"`);

    const report = await runCtxwinInProcess(["eval", "--report", "needle.jsonl", "--html", "again.html"], {
      cwd: folder,
    });
    expect(report).toMatchObject({ status: 0, stderr: "" });
    expect(tableRows(report.stdout)).toEqual(tableRows(run.stdout));
    expect(fs.readFileSync(path.join(folder, "again.html"), "utf8")).toBe(page);

    const refusals: Array<[string[], number, string]> = [
      [
        ["--report", "needle.jsonl", "--model", "demo", "--limit", "2"],
        2,
        "ctxwin eval: --report reads a finished run: --model, --limit belong to a run; leave them out.\n",
      ],
      [
        ["--report", "needle.jsonl", "--out", "other.jsonl"],
        2,
        "ctxwin eval: --report reads a finished run: --out belongs to a run; leave it out.\n",
      ],
      [["--report", "missing.jsonl"], 1, `ctxwin eval: cannot read the results file missing.jsonl: no such file.\n`],
      [
        ["--report", "needle.jsonl", "--html", "needle.jsonl"],
        2,
        "ctxwin eval: --html needle.jsonl is the results file itself: pass another file for the page, e.g. --html ctxwin-eval.html.\n",
      ],
      [
        ["--report", "needle.jsonl", "--html", path.join("no-such-folder", "page.html")],
        2,
        `ctxwin eval: cannot write the page ${path.join("no-such-folder", "page.html")}: no such folder.\n`,
      ],
    ];
    for (const [args, status, stderr] of refusals) {
      const refused = await runCtxwinInProcess(["eval", ...args], { cwd: folder });
      expect({ args, status: refused.status, stderr: refused.stderr }).toEqual({ args, status, stderr });
    }
  });

  it("recall-qa with --data: LoCoMo F1 and the evidence share in the table", async () => {
    const folder = scratch();
    const data = writeLocomoFixture(folder);
    const run = await runCtxwinInProcess(
      [
        "eval",
        "--model",
        "demo",
        "--suite",
        "recall-qa",
        "--strategy",
        "rollover",
        "--limit",
        "1",
        "--data",
        data,
        "--out",
        "qa.jsonl",
      ],
      { cwd: folder },
    );
    expect(run.status).toBe(0);
    const [row] = tableRows(run.stdout);
    expect(row?.split(/\s{2,}/).slice(0, 3)).toEqual(["recall-qa", "rollover", "1"]);
    expect(row?.split(/\s{2,}/)[4]).toMatch(/^\d+\.\d%$/);
  });

  it("a corrupt results file for --resume: one line, exit 1, the file untouched", async () => {
    const folder = scratch();
    const file = path.join(folder, "results.jsonl");
    const content =
      JSON.stringify({
        type: "run",
        version: 1,
        model: "demo (ctxwin's scripted eval model)",
        contextLimit: 16_000,
        seed: 33,
        startedAt: "x",
      }) + "\n{oops\n";
    fs.writeFileSync(file, content);
    const run = await runCtxwinInProcess(["eval", "--model", "demo", "--out", "results.jsonl", "--resume"], {
      cwd: folder,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      "ctxwin eval: the results file results.jsonl is corrupt: line 2 is not JSON; move it away to start over, or pass another --out.\n",
    );
    expect(fs.readFileSync(file, "utf8")).toBe(content);
  });

  it("bad setups are one line and exit 2: missing key, unknown price without --yes, too small a limit, unknown suite, recall-qa without data", async () => {
    const folder = scratch();
    const cases: Array<[string[], string]> = [
      [
        ["--model", "openai:gpt-4.1-mini"],
        "ctxwin eval: no API key: set OPENAI_API_KEY (or pass --base-url <url> for a local OpenAI-compatible server).\n",
      ],
      [
        ["--model", "local-model", "--base-url", "http://127.0.0.1:9/v1"],
        "ctxwin eval: the price of this model is unknown, so the cost cannot be checked against --max-cost: pass --yes to run it.\n",
      ],
      [
        ["--model", "demo", "--context-limit", "2000"],
        "ctxwin eval: --context-limit 2000 is too small for the eval suites: they need at least 4096 tokens (e.g. --context-limit 16k).\n",
      ],
      [
        ["--model", "demo", "--suite", "needle,haystack"],
        "ctxwin eval: bad --suite 'needle,haystack': expected a comma-separated list of continuity, recall-qa, needle.\n",
      ],
      [
        ["--model", "demo", "--suite", "recall-qa"],
        "ctxwin eval: suite recall-qa needs a LoCoMo-format file: pass --data <file> (e.g. locomo10.json from the LoCoMo release).\n",
      ],
    ];
    for (const [args, expected] of cases) {
      const run = await runCtxwinInProcess(["eval", ...args, "--out", "never.jsonl"], { cwd: folder, env: {} });
      // The cost refusal comes after the plan and the estimate it refers to; every other refusal is alone.
      const shown = expected.includes("price") ? `${lines(run.stderr).at(-1) ?? ""}\n` : run.stderr;
      expect({ args, stderr: shown, status: run.status }).toEqual({ args, stderr: expected, status: 2 });
    }
    expect(fs.existsSync(path.join(folder, "never.jsonl"))).toBe(false);
    const priced = await runCtxwinInProcess(
      ["eval", "--model", "local-model", "--base-url", "http://127.0.0.1:9/v1", "--out", "never.jsonl"],
      { cwd: folder, env: {} },
    );
    expect(lines(priced.stderr)[1]).toMatch(/^30 runs .* cost unknown \(no price for this model\)\.$/);
  });

  it("an unreachable server: the failure is recorded per item and named in one line; --resume runs it again", async () => {
    const folder = scratch();
    const port = await closedPort();
    const args = [
      "eval",
      "--model",
      "local-model",
      "--base-url",
      `http://127.0.0.1:${port}/v1`,
      "--yes",
      "--max-retries",
      "0",
      "--suite",
      "needle",
      "--strategy",
      "rollover",
      "--limit",
      "1",
      "--out",
      "down.jsonl",
    ];
    const run = await runCtxwinInProcess(args, { cwd: folder, env: {} });
    expect(run.status).toBe(1);
    expect(lines(run.stderr).at(-1)).toBe(
      'ctxwin eval: 1 of 1 runs failed (see "error" in down.jsonl); run again with --resume to retry them.',
    );
    const [, line] = lines(fs.readFileSync(path.join(folder, "down.jsonl"), "utf8"));
    expect(JSON.parse(line!).result).toMatchObject({
      status: "failed",
      error: `cannot reach http://127.0.0.1:${port}/v1 (ECONNREFUSED)`,
    });
    const resumed = await runCtxwinInProcess([...args, "--resume"], { cwd: folder, env: {} });
    expect(resumed.stderr).toMatch(/^1 runs \(1 items × rollover\)/m);
  });
});

describe("ctxwin eval --dir", () => {
  it("writes the results file and the page in the project folder, and reports from there", async () => {
    const cwd = scratch();
    const project = scratch();
    const args = ["--model", "demo", "--suite", "needle", "--strategy", "off", "--limit", "1", "--dir", project];
    const run = await runCtxwinInProcess(["eval", ...args, "--html", "page.html"], { cwd });
    expect(run.status).toBe(0);
    expect(fs.existsSync(path.join(project, "ctxwin-eval.jsonl"))).toBe(true);
    expect(fs.existsSync(path.join(project, "page.html"))).toBe(true);
    expect(fs.readdirSync(cwd)).toEqual([]);
    const report = await runCtxwinInProcess(["eval", "--report", "ctxwin-eval.jsonl", "--dir", project], { cwd });
    expect([report.status, report.stdout]).toEqual([0, expect.stringMatching(/^suite\s+strategy/)]);
  });

  it("refuses a --dir that is not a folder in one line", async () => {
    const cwd = scratch();
    const run = await runCtxwinInProcess(["eval", "--model", "demo", "--dir", path.join(cwd, "missing")], { cwd });
    expect([run.status, run.stderr.trim()]).toEqual([
      2,
      `ctxwin eval: --dir ${path.join(cwd, "missing")} is not a folder.`,
    ]);
  });
});
