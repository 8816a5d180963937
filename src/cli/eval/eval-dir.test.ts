/**
 * `ctxwin eval --dir <project>`, as every command takes it (README): the relative files of a run
 * are in that folder, not in the working directory.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCtxwinInProcess } from "../test-support/run-ctxwin-in-process.js";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

function scratch(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-eval-dir-"));
  folders.push(folder);
  return folder;
}

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
    expect([run.status, run.stderr.trim()]).toEqual([2, `ctxwin eval: --dir ${path.join(cwd, "missing")} is not a folder.`]);
  });
});
