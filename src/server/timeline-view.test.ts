import { writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TIMELINE_FIXTURE_MARK_KINDS, writeTimelineFixture } from "../store/test-support/timeline-fixture.js";
import { startFixture, type ServerFixture } from "./test-support/server-fixture.js";

describe("GET /api/sessions/:id/timeline", () => {
  let fixture: ServerFixture;

  beforeAll(async () => {
    fixture = await startFixture({
      seed: async (store) => {
        await writeTimelineFixture({ store, sessionId: "t" });
        // 600 rows in one window, then a rollover and a small active window.
        const filler = Array.from({ length: 600 }, (_, index) => ({
          role: "user" as const,
          parts: [{ type: "text" as const, text: `row ${index}` }],
        }));
        await store.append("long", filler);
        await writeTimelineFixture({ store, sessionId: "long" });
      },
    });
  });
  afterAll(() => fixture.close());

  it("reads a short session whole: every request, every mark, every window with its lines", async () => {
    const { status, body } = await fixture.api("/api/sessions/t/timeline");
    expect(status).toBe(200);
    expect(body.detailWindowIds).toEqual(["w:0", "w:8", "w:13", "w:15", "w:21"]);
    expect(body.points).toHaveLength(12);
    expect(body.marks.map((mark: { kind: string }) => mark.kind)).toEqual(TIMELINE_FIXTURE_MARK_KINDS);
    expect(body.windows[0]).toMatchObject({
      windowId: "w:0",
      lines: { warnAt: 6000, threshold: 7000, hardCeiling: 7500 },
      peakTokens: 7100,
    });
    expect(body.settings).toEqual({ strategy: "rollover", threshold: 0.7, outputReserve: 8192 });
  });

  it("opens a long session on its newest windows within the row budget, and pages with window and count", async () => {
    const newest = (await fixture.api("/api/sessions/long/timeline")).body;
    // The first window holds 607 rows: over the 500-row budget, so it is not read.
    expect(newest.detailWindowIds).toEqual(["w:608", "w:613", "w:615", "w:621"]);
    // Windows outside the range are overview bars only: the answer grows by a bar per window.
    expect(newest.windows.map((window: { windowId: string }) => window.windowId)).toEqual(newest.detailWindowIds);
    expect(newest.overview).toHaveLength(5);
    expect(newest.overview[0]).toEqual({ windowId: "w:0", number: 1, kind: "start", limit: 10000, tokens: 7100 });
    expect(newest.marks.every((mark: { windowId: string }) => newest.detailWindowIds.includes(mark.windowId))).toBe(
      true,
    );
    const first = (await fixture.api("/api/sessions/long/timeline?window=w:0&count=1")).body;
    expect(first.detailWindowIds).toEqual(["w:0"]);
    expect(first.points.map((point: { seq: number }) => point.seq)).toEqual([602, 603, 604, 606, 607]);
    const two = (await fixture.api("/api/sessions/long/timeline?window=w:613&count=2")).body;
    expect(two.detailWindowIds).toEqual(["w:608", "w:613"]);
    // count without window ends at the active window: the newest `count` windows, whatever their rows.
    expect((await fixture.api("/api/sessions/long/timeline?count=2")).body.detailWindowIds).toEqual(["w:615", "w:621"]);
    expect((await fixture.api("/api/sessions/long/timeline?count=5")).body.detailWindowIds).toEqual([
      "w:0",
      "w:608",
      "w:613",
      "w:615",
      "w:621",
    ]);
  });

  it("draws the lines for the project's settings", async () => {
    await mkdir(path.join(fixture.directory, ".ctxwin"), { recursive: true });
    await writeFile(path.join(fixture.directory, ".ctxwin", "config.json"), JSON.stringify({ strategy: "off" }));
    const { body } = await fixture.api("/api/sessions/t/timeline");
    expect(body.windows[0].lines).toEqual({ warnAt: null, threshold: null, hardCeiling: 7500 });
    await writeFile(path.join(fixture.directory, ".ctxwin", "config.json"), JSON.stringify({}));
  });

  it("refuses an unknown window, a bad count, and unknown sessions", async () => {
    expect((await fixture.api("/api/sessions/t/timeline?window=w:9999")).status).toBe(400);
    expect((await fixture.api("/api/sessions/t/timeline?window=nine")).status).toBe(400);
    expect((await fixture.api("/api/sessions/t/timeline?count=21")).status).toBe(400);
    expect((await fixture.api("/api/sessions/t/timeline?count=0")).status).toBe(400);
    expect((await fixture.api("/api/sessions/nope/timeline")).status).toBe(404);
  });
});
