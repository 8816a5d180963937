import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { thrownBy } from "../core/test-support/thrown-error.js";
import type { ItemResult } from "./eval-types.js";
import { EvalResultsError, openResultsFile, readResultsFile, type RunHeader } from "./results-file.js";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-eval-results-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const header: RunHeader = {
  type: "run",
  version: 1,
  model: "demo",
  contextLimit: 16_000,
  seed: 33,
  startedAt: "2026-12-05T12:00:00.000Z",
};
const result = (itemId: string, status: ItemResult["status"] = "scored"): ItemResult => ({
  suite: "needle",
  itemId,
  strategy: "rollover",
  status,
  score: status === "scored" ? 1 : 0,
  answers: [],
  inputTokens: 10,
  outputTokens: 2,
  wallMilliseconds: 5,
  rollovers: 1,
  compactions: 0,
  historyCalls: 1,
});

describe("results file", () => {
  it("reads back what was appended; the last result of an item wins (a failed item run again)", () => {
    const file = path.join(folder, "appended.jsonl");
    const writer = openResultsFile({ file, header, resume: false });
    writer.append(result("needle-1", "failed"));
    writer.append(result("needle-2"));
    openResultsFile({ file, header, resume: true }).append(result("needle-1"));
    const read = readResultsFile(file);
    expect(read.header).toEqual(header);
    expect(read.results.map((entry) => [entry.itemId, entry.status])).toEqual([
      ["needle-1", "scored"],
      ["needle-2", "scored"],
    ]);
  });

  it("drops a last line cut off by a kill, and appends after it on a line of its own", () => {
    const file = path.join(folder, "killed.jsonl");
    const writer = openResultsFile({ file, header, resume: false });
    writer.append(result("needle-1"));
    fs.appendFileSync(file, '{"type":"item","result":{"suite":"nee');
    expect(readResultsFile(file).results.map((entry) => entry.itemId)).toEqual(["needle-1"]);
    openResultsFile({ file, header, resume: true }).append(result("needle-2"));
    expect(readResultsFile(file).results.map((entry) => entry.itemId)).toEqual(["needle-1", "needle-2"]);
  });

  it("a corrupt line, a file that is not results, a missing file: one clear line each", () => {
    const corrupt = path.join(folder, "corrupt.jsonl");
    fs.writeFileSync(
      corrupt,
      `${JSON.stringify(header)}\nnot json at all\n${JSON.stringify({ type: "item", result: result("needle-1") })}\n`,
    );
    expect(thrownBy(EvalResultsError, () => readResultsFile(corrupt)).message).toBe(
      `the results file ${corrupt} is corrupt: line 2 is not JSON; move it away to start over, or pass another --out.`,
    );
    const wrongShape = path.join(folder, "shape.jsonl");
    fs.writeFileSync(wrongShape, `${JSON.stringify(header)}\n{"type":"item","result":{"suite":"needle"}}\n`);
    expect(thrownBy(EvalResultsError, () => readResultsFile(wrongShape)).message).toMatch(
      /line 2 is not an item result/,
    );
    const other = path.join(folder, "other.json");
    fs.writeFileSync(other, '{"some": "thing"}\n');
    expect(thrownBy(EvalResultsError, () => readResultsFile(other)).message).toMatch(
      /is not a ctxwin eval results file/,
    );
    expect(thrownBy(EvalResultsError, () => readResultsFile(path.join(folder, "missing.jsonl"))).message).toMatch(
      /cannot read the results file .*missing\.jsonl: no such file\.$/,
    );
    for (const message of [corrupt, wrongShape, other].map(
      (file) => thrownBy(EvalResultsError, () => readResultsFile(file)).message,
    ))
      expect(message).not.toContain("\n");
  });
});
