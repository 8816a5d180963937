import { describe, expect, it } from "vitest";
import { scriptedModel } from "../session/test-support/scripted-model.js";
import { createSession } from "./test-support/chat-requests.js";
import {
  readEvents,
  scriptedChat,
  startFixture,
  type ServerEvent,
  type ServerFixture,
} from "./test-support/server-fixture.js";

async function withChat(
  script: Parameters<typeof scriptedModel>[0]["script"],
  run: (fixture: ServerFixture, calls: ReturnType<typeof scriptedModel>["calls"]) => Promise<void>,
) {
  const { model, calls } = scriptedModel({ script });
  const fixture = await startFixture({ chat: () => scriptedChat({ model }), options: { pollIntervalMs: 50 } });
  try {
    await run(fixture, calls);
  } finally {
    await fixture.close();
  }
}

async function waitUntilIdle(fixture: ServerFixture, sessionId: string) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if ((await fixture.api(`/api/sessions/${sessionId}`)).body.busy === false) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the session stayed busy");
}

/** Posts `text` as a message, which is accepted (202), and reads the session's events until the turn ends. */
function sendTurn(fixture: ServerFixture, sessionId: string, text: string): Promise<ServerEvent[]> {
  return readEvents({
    fixture,
    sessionId,
    until: (event) => event.event === "turn-end",
    start: async () =>
      expect(
        await fixture.api(`/api/sessions/${sessionId}/messages`, { method: "POST", body: { text } }),
      ).toMatchObject({ status: 202, body: { accepted: true } }),
  });
}

describe("chat through the API with a scripted model", () => {
  it("creates a session, streams text-delta, usage, rows and turn-end over SSE, and stores the turn", async () => {
    await withChat([{ textChunks: ["Hel", "lo ", "there"] }], async (fixture, calls) => {
      const info = await fixture.api("/api/info");
      expect(info.body.chat).toEqual({ available: true, model: "scripted", demo: false });
      const created = await fixture.api("/api/sessions", { method: "POST", body: {} });
      expect(created.status).toBe(201);
      const sessionId: string = created.body.sessionId;
      expect(sessionId).toMatch(/^web-\d{8}-\d{6}-[0-9a-f]{8}$/);
      expect((await fixture.api("/api/sessions")).body.sessions).toEqual([
        expect.objectContaining({ sessionId, rows: 0, windows: 0 }),
      ]);
      expect((await fixture.api(`/api/sessions/${sessionId}`)).body).toMatchObject({ sessionId, rows: 0, busy: false });

      const events = await sendTurn(fixture, sessionId, "Say hello");
      const names = events.map((event) => event.event);
      expect(names[0]).toBe("turn-start");
      expect(names.at(-1)).toBe("turn-end");
      expect(
        events
          .filter((event) => event.event === "text-delta")
          .map((event) => event.data.delta)
          .join(""),
      ).toBe("Hello there");
      expect(events.at(-1)?.data).toEqual({ status: "completed", text: "Hello there" });
      expect(names).toContain("step-end");
      expect(names).toContain("rows");
      const usage = events.filter((event) => event.event === "usage").at(-1)?.data;
      expect(usage).toMatchObject({ windowId: "w:0", contextLimit: 10_000, threshold: 7_000, thresholdPercent: 70 });
      expect(usage.contextTokens).toBeGreaterThan(0);
      expect(usage.tokensUntilRollover).toBe(7_000 - usage.contextTokens);
      expect(calls).toHaveLength(1);

      const rows = await fixture.api(`/api/sessions/${sessionId}/rows`);
      expect(rows.body.rows.map((row: { role: string; text: string }) => [row.role, row.text])).toEqual([
        ["user", "Say hello"],
        ["assistant", "Hello there"],
      ]);
      expect((await fixture.api("/api/sessions")).body.sessions[0]).toMatchObject({
        sessionId,
        title: "Say hello",
        rows: 2,
      });
    });
  });

  it("refuses a second message while a turn runs (409), interrupts it, and the session works again", async () => {
    await withChat(
      [{ textChunks: ["partial "], stallUntilAborted: true }, { text: "second answer" }],
      async (fixture, calls) => {
        const sessionId = await createSession(fixture);
        const events = await readEvents({
          fixture,
          sessionId,
          until: (event) => event.event === "turn-end",
          start: async () => {
            expect(
              (await fixture.api(`/api/sessions/${sessionId}/messages`, { method: "POST", body: { text: "first" } }))
                .status,
            ).toBe(202);
            const busy = await fixture.api(`/api/sessions/${sessionId}/messages`, {
              method: "POST",
              body: { text: "too soon" },
            });
            expect(busy.status).toBe(409);
            expect(busy.body.error.code).toBe("busy");
            expect((await fixture.api(`/api/sessions/${sessionId}`)).body.busy).toBe(true);
            expect((await fixture.api(`/api/sessions/${sessionId}/clear`, { method: "POST" })).status).toBe(409);
            await expect.poll(() => calls.length, { timeout: 30_000, interval: 10 }).toBeGreaterThan(0);
            expect((await fixture.api(`/api/sessions/${sessionId}/interrupt`, { method: "POST" })).body).toEqual({
              interrupted: true,
            });
          },
        });
        expect(events.at(-1)?.data).toEqual({ status: "interrupted", text: "partial " });
        await waitUntilIdle(fixture, sessionId);
        expect((await fixture.api(`/api/sessions/${sessionId}/interrupt`, { method: "POST" })).body).toEqual({
          interrupted: false,
        });

        const next = await sendTurn(fixture, sessionId, "again");
        expect(next.at(-1)?.data).toEqual({ status: "completed", text: "second answer" });
        const texts = (await fixture.api(`/api/sessions/${sessionId}/rows`)).body.rows.map(
          (row: { text: string }) => row.text,
        );
        expect(texts).toEqual(["first", "partial ", "again", "second answer"]);
      },
    );
  });

  it("validates messages: empty, blank, huge, wrong shape", async () => {
    await withChat([], async (fixture) => {
      const sessionId = await createSession(fixture);
      for (const body of [
        { text: "" },
        { text: "   \n" },
        { text: "x".repeat(200_001) },
        { message: "hi" },
        { text: 5 },
        undefined,
      ]) {
        const response = await fixture.api(`/api/sessions/${sessionId}/messages`, {
          method: "POST",
          ...(body === undefined ? {} : { body }),
        });
        expect(response.status, JSON.stringify(body)?.slice(0, 40)).toBe(400);
      }
      expect((await fixture.api("/api/sessions", { method: "POST", body: { title: "x" } })).status).toBe(400);
    });
  });

  it("soft clear writes a reset window through the agent; compact summarizes with the model", async () => {
    await withChat(
      [{ text: "An answer about the orders table." }, { text: "Summary: we discussed the orders table." }],
      async (fixture) => {
        const sessionId = await createSession(fixture);
        await sendTurn(fixture, sessionId, "Tell me about orders");
        await waitUntilIdle(fixture, sessionId);
        const compact = await fixture.api(`/api/sessions/${sessionId}/compact`, { method: "POST", body: {} });
        expect(compact).toMatchObject({ status: 200, body: { windowId: "w:3", status: "completed" } });
        const clear = await fixture.api(`/api/sessions/${sessionId}/clear`, { method: "POST" });
        expect(clear).toMatchObject({ status: 200, body: { windowId: "w:4" } });
        const windows = (await fixture.api(`/api/sessions/${sessionId}/windows`)).body.windows;
        expect(windows.map((window: { kind: string }) => window.kind)).toEqual(["initial", "compaction", "reset"]);
        expect((await fixture.api(`/api/sessions/${sessionId}/search?q=orders`)).body.hits).toEqual([]);
        const skipped = await fixture.api(`/api/sessions/${sessionId}/compact`, { method: "POST" });
        expect(skipped.body).toMatchObject({ status: "skipped", windowId: "w:4" });
      },
    );
  });

  it("settings changes apply to the next turn: a lower threshold shows in usage and the next agent", async () => {
    await withChat([{ text: "one" }, { text: "two" }], async (fixture) => {
      const sessionId = await createSession(fixture);
      await sendTurn(fixture, sessionId, "first");
      await waitUntilIdle(fixture, sessionId);
      expect((await fixture.api("/api/settings")).body).toMatchObject({
        strategy: "rollover",
        threshold: 0.7,
        contextLimit: 10_000,
      });
      expect((await fixture.api(`/api/sessions/${sessionId}/usage`)).body).toMatchObject({
        contextLimit: 10_000,
        threshold: 7_000,
      });
      const changed = await fixture.api("/api/settings", {
        method: "PUT",
        body: { threshold: 0.5, contextLimit: 20_000 },
      });
      expect(changed.body).toMatchObject({ threshold: 0.5, contextLimit: 20_000 });
      expect((await fixture.api(`/api/sessions/${sessionId}/usage`)).body).toMatchObject({
        contextLimit: 20_000,
        threshold: 10_000,
        thresholdPercent: 50,
      });
      const events = await sendTurn(fixture, sessionId, "second");
      expect(events.filter((event) => event.event === "usage").at(-1)?.data).toMatchObject({
        contextLimit: 20_000,
        threshold: 10_000,
      });
      const off = await fixture.api("/api/settings", { method: "PUT", body: { strategy: "off", contextLimit: null } });
      // Clearing the saved limit returns to the one the server was started with.
      expect(off.body).toMatchObject({ strategy: "off", contextLimit: 10_000 });
      expect((await fixture.api(`/api/sessions/${sessionId}/usage`)).body).toMatchObject({
        contextLimit: 10_000,
        threshold: null,
        tokensUntilRollover: null,
        hardCeiling: expect.any(Number),
      });
    });
  });

  it("relays a rollover and a blocked input to subscribers", async () => {
    await withChat(
      [{ text: "a long answer", inputTokens: 7_600 }, { text: "fresh window answer" }],
      async (fixture) => {
        const sessionId = await createSession(fixture);
        await sendTurn(fixture, sessionId, "first");
        await waitUntilIdle(fixture, sessionId);
        expect((await fixture.api(`/api/sessions/${sessionId}/usage`)).body).toMatchObject({ tokensUntilRollover: 0 });
        const rolled = await sendTurn(fixture, sessionId, "second");
        const rollover = rolled.find((event) => event.event === "rollover");
        expect(rollover?.data).toEqual({
          windowId: expect.stringMatching(/^w:\d+$/),
          reason: "on-send",
          percent: expect.any(Number),
        });
        expect(rollover?.data.percent).toBeGreaterThanOrEqual(70);
        expect(rolled.at(-1)?.data).toEqual({ status: "completed", text: "fresh window answer" });
        const windows = (await fixture.api(`/api/sessions/${sessionId}/windows`)).body.windows;
        expect(windows.map((window: { kind: string; reason?: string }) => [window.kind, window.reason])).toEqual([
          ["initial", undefined],
          ["rollover", "on-send"],
        ]);

        await waitUntilIdle(fixture, sessionId);
        const blocked = await sendTurn(fixture, sessionId, "word ".repeat(20_000));
        expect(blocked.find((event) => event.event === "blocked")?.data).toEqual({ reason: expect.any(String) });
        expect(blocked.at(-1)?.data.status).toBe("blocked");
        const last = (await fixture.api(`/api/sessions/${sessionId}/rows?limit=1`)).body.rows[0];
        expect(last).toMatchObject({ kind: "rejected-input", role: "user" });
      },
    );
  });

  it("relays a retry of a step cut by a transient provider failure, with the streamed characters it drops", async () => {
    const overloaded = { type: "overloaded_error", message: "Overloaded" };
    await withChat(
      [{ textChunks: ["Partial ", "answ"], errorMidStream: overloaded }, { textChunks: ["Whole answer."] }],
      async (fixture, calls) => {
        const sessionId = await createSession(fixture);
        const events = await sendTurn(fixture, sessionId, "Hi");
        const retry = events.find((event) => event.event === "retry");
        expect(retry?.data).toEqual({
          message: expect.stringContaining("Overloaded"),
          retry: 1,
          discardedChars: "Partial answ".length,
        });
        expect(events.map((event) => event.event)).not.toContain("error");
        expect(events.at(-1)?.data).toEqual({ status: "completed", text: "Whole answer." });
        expect(calls).toHaveLength(2);
        const rows = await fixture.api(`/api/sessions/${sessionId}/rows`);
        expect(rows.body.rows.map((row: { role: string; text: string }) => [row.role, row.text])).toEqual([
          ["user", "Hi"],
          ["assistant", "Whole answer."],
        ]);
      },
    );
  });

  it("close() interrupts a running turn, ends the event streams and keeps what streamed", async () => {
    const { model, calls } = scriptedModel({ script: [{ textChunks: ["half an answer"], stallUntilAborted: true }] });
    const fixture = await startFixture({ chat: () => scriptedChat({ model }) });
    try {
      const sessionId = await createSession(fixture);
      const events = await readEvents({
        fixture,
        sessionId,
        until: () => false,
        start: async () => {
          await fixture.api(`/api/sessions/${sessionId}/messages`, { method: "POST", body: { text: "go" } });
          await expect.poll(() => calls.length, { timeout: 30_000, interval: 10 }).toBeGreaterThan(0);
          await fixture.server.close();
        },
      });
      expect(events.map((event) => event.event)).toContain("turn-start");
      const rows = await fixture.store.items(sessionId, { afterSeq: 0 });
      expect(
        rows.rows.map((row) => [
          row.role,
          row.parts
            .filter((part) => part.type === "text")
            .map((part) => (part as { text: string }).text)
            .join(""),
        ]),
      ).toEqual([
        ["user", "go"],
        ["assistant", "half an answer"],
      ]);
    } finally {
      await fixture.close();
    }
  });

  it("tells subscribers about rows another writer stored", async () => {
    await withChat([], async (fixture) => {
      await fixture.store.append("other", [{ role: "user", parts: [{ type: "text", text: "one" }] }]);
      const events = await readEvents({
        fixture,
        sessionId: "other",
        until: (event) => event.event === "rows",
        start: () => fixture.store.append("other", [{ role: "assistant", parts: [{ type: "text", text: "two" }] }]),
      });
      expect(events.find((event) => event.event === "rows")?.data).toEqual({ lastSeq: 2 });
    });
  });
});
