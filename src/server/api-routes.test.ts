import { readFile, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCRIPT_TEXT, writeFixtureTranscript } from "./test-support/fixture-transcript.js";
import { startFixture, type ServerFixture } from "./test-support/server-fixture.js";

describe("ctxwin serve API over a stored session (view-only server)", () => {
  let fixture: ServerFixture;

  beforeAll(async () => {
    fixture = await startFixture({
      seed: async (store) => {
        await store.append("older", [
          { role: "user", parts: [{ type: "text", text: "An older session about deployments" }] },
        ]);
        await writeFixtureTranscript({ store, sessionId: "s1" });
      },
    });
  });
  afterAll(() => fixture.close());

  it("GET /api/info names the directory and says chat is unavailable", async () => {
    const { status, body } = await fixture.api("/api/info");
    expect(status).toBe(200);
    expect(body).toEqual({
      version: expect.any(String),
      dir: fixture.directory,
      chat: { available: false, model: null, demo: false },
      eval: { loaded: false, file: null },
      search: { modes: ["literal", "ranked"], embeddingModel: null },
    });
    expect(body.version).not.toBe("unknown");
  });

  it("GET /api/sessions lists sessions newest first with titles, and filters by id or title", async () => {
    const { body } = await fixture.api("/api/sessions");
    expect(body.sessions.map((session: { sessionId: string }) => session.sessionId)).toEqual(["s1", "older"]);
    // s1 was cleared at seq 10: its title is its first user message after the clear (ADR 0046).
    expect(body.sessions[0]).toEqual({
      sessionId: "s1",
      title: "after the clear",
      lastActivity: expect.any(String),
      windows: 3,
      rows: 12,
      parent: null,
      forkOf: null,
    });
    expect(
      (await fixture.api("/api/sessions?q=DEPLOY")).body.sessions.map(
        (session: { sessionId: string }) => session.sessionId,
      ),
    ).toEqual(["older"]);
    expect((await fixture.api("/api/sessions?q=retry%20policy")).body.sessions).toEqual([]);
    expect((await fixture.api("/api/sessions?q=s1")).body.sessions).toHaveLength(1);
    expect((await fixture.api("/api/sessions?limit=1")).body.sessions).toHaveLength(1);
    expect((await fixture.api("/api/sessions?limit=0")).status).toBe(400);
  });

  it("GET /api/sessions/:id summarizes the session with its usage", async () => {
    const { status, body } = await fixture.api("/api/sessions/s1");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      sessionId: "s1",
      title: "after the clear",
      windows: 3,
      rows: 12,
      lastSeq: 12,
      busy: false,
    });
    expect(body.usage).toMatchObject({ windowId: "w:10", contextLimit: null });
  });

  it("answers 404 for an unknown session and 400 for a malformed id, on every session route", async () => {
    for (const suffix of ["", "/rows", "/windows", "/search?q=x", "/usage", "/timeline", "/events"]) {
      const unknown = await fixture.api(`/api/sessions/nope${suffix}`);
      expect(unknown.status, suffix).toBe(404);
      expect(unknown.body.error.code).toBe("not-found");
      const malformed = await fixture.api(`/api/sessions/${"x".repeat(300)}${suffix}`);
      expect(malformed.status, suffix).toBe(400);
      expect(malformed.body.error).toEqual({ code: "bad-request", message: expect.any(String) });
    }
    // A path that is not valid percent-encoding is a bad request, not an unknown route.
    for (const suffix of ["", "/rows", "/timeline"]) {
      const broken = await fixture.api(`/api/sessions/%E0%A4%A${suffix}`);
      expect(broken.status, suffix).toBe(400);
      expect(broken.body.error).toEqual({ code: "bad-request", message: expect.stringMatching(/percent-encoding/) });
    }
    expect((await fixture.api("/api/sessions/%ZZ/clear", { method: "POST", body: {} })).status).toBe(400);
    for (const action of ["messages", "interrupt", "clear", "compact"]) {
      expect(
        (
          await fixture.api(`/api/sessions/nope/${action}`, {
            method: "POST",
            body: action === "messages" ? { text: "hi" } : {},
          })
        ).status,
        action,
      ).toBe(404);
    }
  });

  it("GET rows: the newest rows by default, kinds, boundaries, hidden rows only with internal=true", async () => {
    const { body } = await fixture.api("/api/sessions/s1/rows");
    const seqs = body.rows.map((row: { seq: number }) => row.seq);
    expect(seqs).toEqual([1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12]);
    expect(body.hasMoreBefore).toBe(false);
    expect(body.hasMoreAfter).toBe(false);
    const bySeq = new Map(body.rows.map((row: { seq: number }) => [row.seq, row]));
    expect(bySeq.get(2)).toMatchObject({
      kind: "tool",
      windowId: "w:0",
      windowNumber: 1,
      parts: [
        {
          type: "tool",
          toolName: "read_file",
          state: "output-available",
          input: '{"path":"src/retry.ts"}',
          output: "export const RETRIES = 3;",
        },
      ],
    });
    expect(bySeq.get(4)).toMatchObject({ kind: "warning", hidden: false });
    expect(bySeq.get(5)).toMatchObject({
      kind: "boundary",
      windowId: "w:5",
      windowNumber: 2,
      boundary: { kind: "rollover", reason: "on-send", percent: 71, contextTokens: 1420, maxTokens: 2000 },
    });
    expect(bySeq.get(9)).toMatchObject({ kind: "rejected-input", text: "a message far too large" });
    expect(bySeq.get(10)).toMatchObject({
      kind: "boundary",
      windowId: "w:10",
      windowNumber: 3,
      boundary: { kind: "reset" },
    });
    expect(bySeq.get(1)).toMatchObject({
      kind: "message",
      role: "user",
      itemId: "1",
      truncated: false,
      createdAt: expect.any(String),
    });

    const internal = await fixture.api("/api/sessions/s1/rows?internal=true");
    expect(internal.body.rows.map((row: { seq: number }) => row.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(internal.body.rows[5]).toMatchObject({ seq: 6, kind: "internal", hidden: true });
  });

  it("a row with <script> comes back as plain JSON text", async () => {
    const response = await fixture.api("/api/sessions/s1/rows?from=7&limit=1");
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.body.rows[0]).toMatchObject({
      seq: 7,
      text: SCRIPT_TEXT,
      parts: [{ type: "text", text: SCRIPT_TEXT }],
    });
  });

  it("pages with before / after / from and reports what lies beyond", async () => {
    const before = await fixture.api("/api/sessions/s1/rows?before=8&limit=2");
    expect(before.body.rows.map((row: { seq: number }) => row.seq)).toEqual([5, 7]);
    expect(before.body).toMatchObject({ hasMoreBefore: true, hasMoreAfter: true });
    const after = await fixture.api("/api/sessions/s1/rows?after=10");
    expect(after.body.rows.map((row: { seq: number }) => row.seq)).toEqual([11, 12]);
    expect(after.body).toMatchObject({ hasMoreBefore: true, hasMoreAfter: false });
    const from = await fixture.api("/api/sessions/s1/rows?from=5&limit=3");
    expect(from.body.rows.map((row: { seq: number }) => row.seq)).toEqual([5, 7, 8]);
    expect(from.body).toMatchObject({ hasMoreBefore: true, hasMoreAfter: true });
    const none = await fixture.api("/api/sessions/s1/rows?before=1");
    expect(none.body).toEqual({ rows: [], hasMoreBefore: false, hasMoreAfter: true });
    const beyond = await fixture.api("/api/sessions/s1/rows?after=12");
    expect(beyond.body).toEqual({ rows: [], hasMoreBefore: true, hasMoreAfter: false });
    const first = await fixture.api("/api/sessions/s1/rows?from=1&limit=1");
    expect(first.body).toMatchObject({ hasMoreBefore: false, hasMoreAfter: true });
  });

  it("refuses bad paging input", async () => {
    for (const query of ["limit=0", "limit=501", "before=-1", "before=abc", "before=3&after=2", "internal=maybe"]) {
      const { status, body } = await fixture.api(`/api/sessions/s1/rows?${query}`);
      expect(status, query).toBe(400);
      expect(body.error.code).toBe("bad-request");
    }
  });

  it("GET windows lists every window oldest first, numbered, with kind, span and reason", async () => {
    const { body } = await fixture.api("/api/sessions/s1/windows");
    expect(body.windows).toEqual([
      { windowId: "w:0", number: 1, kind: "initial", firstSeq: 1, lastSeq: 4, items: 4, startedAt: expect.any(String) },
      {
        windowId: "w:5",
        number: 2,
        kind: "rollover",
        firstSeq: 5,
        lastSeq: 9,
        items: 5,
        startedAt: expect.any(String),
        reason: "on-send",
        percent: 71,
      },
      {
        windowId: "w:10",
        number: 3,
        kind: "reset",
        firstSeq: 10,
        lastSeq: 12,
        items: 3,
        startedAt: expect.any(String),
      },
    ]);
  });

  it("search applies the privacy floor of the newest soft clear, in both modes", async () => {
    const literal = await fixture.api("/api/sessions/s1/search?q=secret");
    expect(literal.body.hits).toEqual([
      {
        itemId: "12",
        seq: 12,
        windowId: "w:10",
        windowNumber: 3,
        role: "assistant",
        snippet: "The word is secret-after-clear.",
        matches: [{ start: 12, length: 6 }],
      },
    ]);
    const ranked = await fixture.api("/api/sessions/s1/search?q=word&mode=ranked");
    expect(ranked.body.hits.map((hit: { seq: number }) => hit.seq)).toEqual([12]);
    expect(ranked.body.hits[0].matches).toEqual([{ start: 4, length: 4 }]);
    expect((await fixture.api("/api/sessions/s1/search?q=RETRIES")).body.hits).toEqual([]);
  });

  it("search narrows by role and tool and orders ranked hits newest first on request", async () => {
    const seqs = async (query: string) =>
      ((await fixture.api(`/api/sessions/s1/search?${query}`)).body.hits as { seq: number }[]).map((hit) => hit.seq);
    expect(await seqs("q=clear")).toEqual([12, 11]);
    expect(await seqs("q=clear&role=user")).toEqual([11]);
    expect(await seqs("q=clear&role=assistant&mode=ranked")).toEqual([12]);
    expect(await seqs("q=clear&mode=ranked&order=newest")).toEqual([12, 11]);
    expect(await seqs("q=secret&mode=ranked&order=newest&role=assistant")).toEqual([12]);
    // The only read_file call is before the soft clear: a filter never reaches past the floor.
    expect(await seqs("q=retries&tool=READ_FILE&mode=ranked")).toEqual([]);
    expect(await seqs("q=clear&tool=read_file")).toEqual([]);
  });

  it("search refuses an empty query, a NUL character, a bad mode, limit, role, tool or order", async () => {
    const bad = [
      "q=x&role=tool",
      "q=x&tool=",
      "q=x&tool=%20",
      "q=x&order=oldest",
      "q=x&order=relevance",
      "q=x&mode=ranked&order=best",
    ];
    for (const query of [
      "q=",
      "q=x%00y",
      "q=abc%00def&mode=ranked",
      "q=%20%20",
      "q=x&mode=fuzzy",
      "q=x&limit=0",
      "q=x&limit=101",
      "",
      ...bad,
    ]) {
      expect((await fixture.api(`/api/sessions/s1/search?${query}`)).status, query).toBe(400);
    }
  });

  it("search answers a bad query with a 400 that says what to send, and searches stop words and punctuation literally (ADR 0051)", async () => {
    const refused: [string, RegExp][] = [
      ["q=what%20did%20we%20do&mode=ranked", /common English word .*literal mode/],
      ["q=%3F!%20~~&mode=ranked", /at least one word of letters or digits/],
      [`q=${"x".repeat(10_000)}`, /10000 characters long; the limit is 1000/],
      [`q=${"ledger%20".repeat(1_500)}&mode=ranked`, /10500 characters long; the limit is 1000/],
    ];
    for (const [query, message] of refused) {
      const { status, body } = await fixture.api(`/api/sessions/s1/search?${query}`);
      expect([query.slice(0, 40), status]).toEqual([query.slice(0, 40), 400]);
      expect(body.error.message).toMatch(message);
    }
    for (const query of ["q=what%20did%20we%20do", "q=~~", "q=%3F!", "q=the%20the%20the"]) {
      const { status, body } = await fixture.api(`/api/sessions/s1/search?${query}`);
      expect([query, status, Array.isArray(body.hits)]).toEqual([query, 200, true]);
    }
  });

  it("GET usage derives the active window's figure from the store without a model", async () => {
    const { status, body } = await fixture.api("/api/sessions/s1/usage");
    expect(status).toBe(200);
    expect(body).toEqual({
      windowId: "w:10",
      contextTokens: expect.any(Number),
      contextLimit: null,
      threshold: null,
      hardCeiling: null,
      percent: null,
      thresholdPercent: null,
      tokensUntilRollover: null,
      spend: expect.objectContaining({ requests: expect.any(Number), cachedShare: expect.any(Number) }),
      model: null,
      modelSource: null,
    });
    expect(body.contextTokens).toBeGreaterThan(0);
  });

  it("chat endpoints answer 409 without a model; a soft clear still works", async () => {
    expect((await fixture.api("/api/sessions", { method: "POST", body: {} })).status).toBe(409);
    const message = await fixture.api("/api/sessions/older/messages", { method: "POST", body: { text: "hi" } });
    expect(message.status).toBe(409);
    expect(message.body.error.code).toBe("chat-unavailable");
    expect((await fixture.api("/api/sessions/older/compact", { method: "POST" })).status).toBe(409);
    expect((await fixture.api("/api/sessions/older/interrupt", { method: "POST" })).body).toEqual({
      interrupted: false,
    });
    const clear = await fixture.api("/api/sessions/older/clear", { method: "POST", body: {} });
    expect(clear).toMatchObject({ status: 200, body: { windowId: "w:2" } });
    expect(
      (await fixture.api("/api/sessions/older/windows")).body.windows.map((window: { kind: string }) => window.kind),
    ).toEqual(["initial", "reset"]);
  });

  it("unknown API routes are 404 and wrong methods 405, as JSON", async () => {
    const unknown = await fixture.api("/api/nothing");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: { code: "not-found", message: expect.any(String) } });
    expect((await fixture.api("/api/sessions/s1/rows", { method: "DELETE" })).status).toBe(405);
  });
});

describe("settings", () => {
  it("round-trip to .ctxwin/config.json keeping unknown sections, validated", async () => {
    const fixture = await startFixture();
    try {
      const configPath = path.join(fixture.directory, ".ctxwin", "config.json");
      await mkdir(path.dirname(configPath), { recursive: true });
      await writeFile(
        configPath,
        JSON.stringify({
          futureSection: { keep: true },
          budget: { outputReserve: 4096 },
          models: { "ollama:qwen3": { contextLimit: 40_960 } },
        }),
      );
      const initial = await fixture.api("/api/settings");
      expect(initial.body).toEqual({
        strategy: "rollover",
        threshold: 0.7,
        contextLimit: null,
        path: configPath,
        explanations: { strategy: expect.any(String), threshold: expect.any(String), contextLimit: expect.any(String) },
      });
      const changed = await fixture.api("/api/settings", {
        method: "PUT",
        body: { strategy: "compact", threshold: 0.6 },
      });
      expect(changed.body).toMatchObject({ strategy: "compact", threshold: 0.6, contextLimit: null });
      expect(JSON.parse(await readFile(configPath, "utf8"))).toEqual({
        futureSection: { keep: true },
        budget: { outputReserve: 4096, threshold: 0.6 },
        models: { "ollama:qwen3": { contextLimit: 40_960 } },
        strategy: "compact",
      });
      expect((await fixture.api("/api/settings")).body).toMatchObject({ strategy: "compact", threshold: 0.6 });
      for (const body of [
        { threshold: 0.05 },
        { threshold: 0.99 },
        { strategy: "summarize" },
        { contextLimit: -5 },
        { contextLimit: 1.5 },
        { unknown: 1 },
        [],
      ]) {
        expect((await fixture.api("/api/settings", { method: "PUT", body })).status, JSON.stringify(body)).toBe(400);
      }
      // Without a model there is no model to override the limit of.
      expect((await fixture.api("/api/settings", { method: "PUT", body: { contextLimit: 32_000 } })).status).toBe(409);
    } finally {
      await fixture.close();
    }
  });

  it("an unusable config.json is a 409 naming the problem, and is left untouched", async () => {
    const fixture = await startFixture();
    try {
      const configPath = path.join(fixture.directory, ".ctxwin", "config.json");
      await mkdir(path.dirname(configPath), { recursive: true });
      await writeFile(configPath, "{ not json");
      const read = await fixture.api("/api/settings");
      expect(read.status).toBe(409);
      expect(read.body.error.code).toBe("config-invalid");
      expect((await fixture.api("/api/settings", { method: "PUT", body: { threshold: 0.5 } })).status).toBe(409);
      expect(await readFile(configPath, "utf8")).toBe("{ not json");
    } finally {
      await fixture.close();
    }
  });
});
