/**
 * `ctxwin serve --eval`'s source behind `GET /api/eval`: a results file read by eval's reader,
 * summarised as `ctxwin eval` prints it, served by a real server and read again on each request.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_RESULTS, HOSTILE_TEXT, writeResultsFixture } from "../../eval/test-support/results-fixture.js";
import { startFixture, type ServerFixture } from "../../server/test-support/server-fixture.js";
import { openEvalSource } from "./eval-source.js";

describe("GET /api/eval over ctxwin serve --eval's source", () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-eval-route-"));
  const file = path.join(folder, "results.jsonl");
  let fixture: ServerFixture;

  beforeAll(async () => {
    writeResultsFixture(file);
    fixture = await startFixture({ options: { eval: await openEvalSource({ file }) } });
  });
  afterAll(async () => {
    await fixture.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("/api/info says an eval is loaded and names its file", async () => {
    const { body } = await fixture.api("/api/info");
    expect(body.eval).toEqual({ loaded: true, file });
  });

  it("answers the run, one summary row per suite and strategy, and no item (they come in pages)", async () => {
    const { status, body } = await fixture.api("/api/eval");
    expect(status).toBe(200);
    expect(body.file).toBe(file);
    expect(body.run).toEqual({
      model: "demo (ctxwin's scripted eval model)",
      contextLimit: 16_000,
      seed: 33,
      startedAt: "2026-12-05T12:00:00.000Z",
    });
    expect(body.suites).toEqual(["continuity", "needle"]);
    expect(body.summary).toHaveLength(6);
    expect(
      body.summary.find(
        (row: { suite: string; strategy: string }) => row.suite === "needle" && row.strategy === "rollover",
      ),
    ).toEqual({
      suite: "needle",
      strategy: "rollover",
      items: 2,
      failed: 0,
      blocked: 0,
      score: 1,
      evidenceReached: null,
      inputTokens: 20_000,
      outputTokens: 1_000,
      costUsd: 0.02,
      wallSeconds: 4,
      rollovers: 2,
      compactions: 0,
      historyCalls: 4,
    });
    // A strategy whose only item failed has no score: null, not a missing field.
    expect(
      body.summary.find(
        (row: { suite: string; strategy: string }) => row.suite === "continuity" && row.strategy === "compact",
      ),
    ).toMatchObject({ items: 0, failed: 1, score: null });
    expect(body.items).toBeUndefined();
  });

  it("pages a suite's items in the file's order with limit and cursor, by strategy too", async () => {
    const needle = FIXTURE_RESULTS.filter((result) => result.suite === "needle");
    const first = (await fixture.api("/api/eval/items?suite=needle&limit=2")).body;
    expect(first.total).toBe(needle.length);
    expect(first.items.map((item: { itemId: string; strategy: string }) => `${item.itemId}/${item.strategy}`)).toEqual(
      needle.slice(0, 2).map((result) => `${result.itemId}/${result.strategy}`),
    );
    expect(first.nextCursor).toBe("2");
    const pages = [...first.items];
    for (let cursor = first.nextCursor; cursor !== null;) {
      const page = (await fixture.api(`/api/eval/items?suite=needle&limit=2&cursor=${cursor}`)).body;
      pages.push(...page.items);
      cursor = page.nextCursor;
    }
    expect(pages).toHaveLength(needle.length);
    const failed = (await fixture.api("/api/eval/items?suite=continuity&strategy=compact")).body;
    expect(failed).toMatchObject({ total: 1, nextCursor: null });
    expect(failed.items).toEqual([
      expect.objectContaining({
        suite: "continuity",
        itemId: "continuity-1",
        strategy: "compact",
        error: HOSTILE_TEXT,
        costUsd: 0.004,
        evidenceReached: null,
        answers: [],
      }),
    ]);
    expect((await fixture.api("/api/eval/items?suite=nonesuch")).body).toEqual({
      items: [],
      total: 0,
      nextCursor: null,
    });
  });

  it("keeps only a page of whole results: the answers of other items are never parsed into the view", async () => {
    const scored = (await fixture.api("/api/eval/items?suite=needle&limit=1")).body.items[0];
    const whole = FIXTURE_RESULTS.find(
      (result) => result.suite === "needle" && result.itemId === scored.itemId && result.strategy === scored.strategy,
    );
    expect(scored.answers).toEqual(
      whole?.answers.map(({ question, answer, expected, score }) => ({ question, answer, expected, score })),
    );
  });

  it("reads the file again on each request: a result appended since shows", async () => {
    fs.appendFileSync(
      file,
      `${JSON.stringify({ type: "item", result: { ...FIXTURE_RESULTS[0], itemId: "continuity-2" } })}\n`,
    );
    const { body } = await fixture.api("/api/eval");
    expect(body.summary[0]).toMatchObject({ suite: "continuity", strategy: "rollover", items: 2 });
    expect((await fixture.api("/api/eval/items?suite=continuity&strategy=rollover")).body.total).toBe(2);
  });

  it("answers 409 eval-unreadable, with the reader's one line, when the file has become corrupt", async () => {
    fs.appendFileSync(file, "not json\n");
    const { status, body } = await fixture.api("/api/eval");
    expect(status).toBe(409);
    expect(body.error).toEqual({
      code: "eval-unreadable",
      message: expect.stringMatching(/is corrupt: line \d+ is not JSON; pass the file ctxwin eval --out wrote\.$/),
    });
  });
});

describe("openEvalSource", () => {
  it("refuses a missing or corrupt file at once, with one line", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-eval-source-"));
    try {
      await expect(openEvalSource({ file: path.join(folder, "missing.jsonl") })).rejects.toThrow(
        /^cannot read the results file .*missing\.jsonl: no such file\.$/,
      );
      fs.writeFileSync(path.join(folder, "cut.jsonl"), "{\n");
      await expect(openEvalSource({ file: path.join(folder, "cut.jsonl") })).rejects.toThrow(
        /is corrupt: line 1 is not JSON; pass the file ctxwin eval --out wrote\.$/,
      );
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it("leaves out a last line still being written, as the reader does", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-eval-source-"));
    try {
      const file = path.join(folder, "running.jsonl");
      writeResultsFixture(file);
      fs.appendFileSync(file, '{"type":"item","result":{"suite":"needle"');
      const source = await openEvalSource({ file });
      const needle = FIXTURE_RESULTS.filter((result) => result.suite === "needle").length;
      expect((await source.items({ suite: "needle", limit: 500, cursor: 0 })).total).toBe(needle);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
