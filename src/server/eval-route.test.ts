/**
 * `GET /api/eval` and the `eval` field of `/api/info`: a server given an eval source answers its
 * run; one without answers 404; a source that cannot read answers 409 with its one line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvalItemView, EvalSource, EvalView } from "./eval-view.js";
import { startFixture, type ServerFixture } from "./test-support/server-fixture.js";

const VIEW: EvalView = {
  file: "/runs/results.jsonl",
  run: { model: "demo", contextLimit: 16_000, seed: 33, startedAt: "2026-12-05T12:00:00.000Z" },
  suites: ["needle"],
  summary: [
    {
      suite: "needle",
      strategy: "rollover",
      items: 1,
      failed: 0,
      blocked: 0,
      score: 1,
      evidenceReached: null,
      inputTokens: 900,
      outputTokens: 40,
      costUsd: null,
      wallSeconds: 1.5,
      rollovers: 1,
      compactions: 0,
      historyCalls: 1,
    },
  ],
};
const ITEM: EvalItemView = {
  suite: "needle",
  itemId: "needle-1",
  strategy: "rollover",
  status: "scored",
  score: 1,
  evidenceReached: null,
  inputTokens: 900,
  outputTokens: 40,
  costUsd: null,
  wallMilliseconds: 1_500,
  rollovers: 1,
  compactions: 0,
  historyCalls: 1,
  error: null,
  answers: [],
};

describe("GET /api/eval with an eval source", () => {
  let fixture: ServerFixture;
  let broken = false;
  const source: EvalSource = {
    file: VIEW.file,
    read: async () => {
      if (broken) throw new Error("the results file /runs/results.jsonl is corrupt: line 3 is not JSON.\nmore detail");
      return VIEW;
    },
    items: async (query) => {
      queries.push(query);
      if (broken) throw new Error("the results file /runs/results.jsonl is corrupt: line 3 is not JSON.");
      return { items: [ITEM], total: 1, nextCursor: null };
    },
  };
  const queries: unknown[] = [];

  beforeAll(async () => {
    fixture = await startFixture({ options: { eval: source } });
  });
  afterAll(() => fixture.close());

  it("/api/info says an eval is loaded and names its file", async () => {
    expect((await fixture.api("/api/info")).body.eval).toEqual({ loaded: true, file: "/runs/results.jsonl" });
  });

  it("answers the source's run", async () => {
    const { status, body } = await fixture.api("/api/eval");
    expect(status).toBe(200);
    expect(body).toEqual(VIEW);
  });

  it("needs the token like every API route", async () => {
    expect((await fixture.raw({ path: "/api/eval" })).status).toBe(401);
    expect((await fixture.raw({ path: "/api/eval/items?suite=needle" })).status).toBe(401);
  });

  it("answers a page of items for the query it was given, and refuses a query without a suite or with a bad cursor", async () => {
    const { status, body } = await fixture.api("/api/eval/items?suite=needle&strategy=rollover&limit=10&cursor=20");
    expect(status).toBe(200);
    expect(body).toEqual({ items: [ITEM], total: 1, nextCursor: null });
    expect(queries.at(-1)).toEqual({ suite: "needle", strategy: "rollover", limit: 10, cursor: 20 });
    await fixture.api("/api/eval/items?suite=needle");
    expect(queries.at(-1)).toEqual({ suite: "needle", limit: 50, cursor: 0 });
    for (const query of [
      "",
      "?suite=",
      "?suite=needle&cursor=-1",
      "?suite=needle&cursor=abc",
      "?suite=needle&limit=0",
      "?suite=needle&limit=501",
    ]) {
      expect((await fixture.api(`/api/eval/items${query}`)).status).toBe(400);
    }
  });

  it("answers 409 eval-unreadable with the first line of the source's failure", async () => {
    broken = true;
    try {
      const { status, body } = await fixture.api("/api/eval");
      expect(status).toBe(409);
      expect(body.error).toEqual({
        code: "eval-unreadable",
        message: "the results file /runs/results.jsonl is corrupt: line 3 is not JSON.",
      });
    } finally {
      broken = false;
    }
  });
});

describe("GET /api/eval without an eval", () => {
  let fixture: ServerFixture;

  beforeAll(async () => {
    fixture = await startFixture();
  });
  afterAll(() => fixture.close());

  it("/api/info says no eval is loaded, and /api/eval is a 404 that says how to load one", async () => {
    expect((await fixture.api("/api/info")).body.eval).toEqual({ loaded: false, file: null });
    expect((await fixture.api("/api/eval/items?suite=needle")).status).toBe(404);
    const { status, body } = await fixture.api("/api/eval");
    expect(status).toBe(404);
    expect(body.error).toEqual({
      code: "not-found",
      message: "No eval results are loaded: start the server with ctxwin serve --eval <results.jsonl>.",
    });
  });
});
