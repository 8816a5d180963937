/**
 * LoCoMo is a `--data` file: the plan never looks for it beside the working directory
 * (docs/design.md is silent; issue 52: shipped code never defaults to a sibling folder).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { planItems } from "./plan-items.js";

const folders: string[] = [];
const startCwd = process.cwd();
afterEach(() => {
  process.chdir(startCwd);
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

/** A working directory with a LoCoMo file where a development checkout once kept one. */
function projectBesideSharedData(): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-plan-items-"));
  folders.push(parent);
  const data = path.join(parent, "shared", "data", "locomo-dev");
  fs.mkdirSync(data, { recursive: true });
  fs.writeFileSync(path.join(data, "locomo-dev.json"), "[]");
  const project = path.join(parent, "project");
  fs.mkdirSync(project);
  return project;
}

describe("planItems and the LoCoMo file", () => {
  it("skips recall-qa without --data, even with a LoCoMo file in a sibling folder", () => {
    process.chdir(projectBesideSharedData());
    const plan = planItems({ contextLimit: 16_000, limit: 1, seed: 1 });
    expect(plan.skipped).toEqual(["recall-qa (no --data file)"]);
    expect(plan.items.some((item) => item.suite === "recall-qa")).toBe(false);
  });

  it("refuses a named recall-qa without --data with a line naming --data", () => {
    expect(() => planItems({ suites: "recall-qa", contextLimit: 16_000, limit: 1, seed: 1 })).toThrow(/--data <file>/);
  });
});
