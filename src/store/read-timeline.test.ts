import { describe, expect, it } from "vitest";
import { openStore } from "./open-store.js";
import type { HistoryStore } from "./port.js";
import { readTimeline } from "./read-timeline.js";
import { backendStores } from "./test-support/backend-stores.js";
import { writeTimelineFixture } from "./test-support/timeline-fixture.js";

const settings = { strategy: "rollover", threshold: 0.7, outputReserve: 8192 } as const;

describe.each(["memory", "sqlite"] as const)("readTimeline (%s)", (backend) => {
  const openBackendStore = backendStores(backend, "ctxwin-timeline-");

  async function fixture(): Promise<HistoryStore> {
    const store = openBackendStore();
    await writeTimelineFixture({ store, sessionId: "t" });
    return store;
  }

  it("has one point per stored step with the tokens it was sent with, and every mark", async () => {
    const timeline = await readTimeline({ store: await fixture(), sessionId: "t", settings });
    expect(timeline.points.map((point) => [point.seq, point.tokens])).toEqual([
      [2, 2000],
      [3, 5200],
      [4, 6300],
      [6, 6600],
      [7, 7100],
      [11, 1500],
      [12, 4000],
      [14, 1200],
      [17, 900],
      [18, 6500],
      [20, 6700],
      [24, 1000],
    ]);
    expect(timeline.points.every((point) => point.limit === 10_000 && point.source === "reported")).toBe(true);
    expect(timeline.marks.map((mark) => `${mark.kind}@${mark.seq}`)).toEqual([
      "warning@5",
      "notes@6",
      "rollover@8",
      "compaction@13",
      "clear@15",
      "warning@19",
      "flush@20",
      "notes@20",
      "rollover@21",
    ]);
    expect(timeline.marks.find((mark) => mark.kind === "rollover" && mark.seq === 21)).toMatchObject({
      tokens: 6900,
      detail: "mid-stream",
      windowId: "w:21",
    });
  });

  it("sums each window: requests, peak, warning, the rollover that closed it, tool output", async () => {
    const timeline = await readTimeline({ store: await fixture(), sessionId: "t", settings });
    const [first, second, third, fourth, fifth] = timeline.windows;
    expect(timeline.windows.map((window) => window.windowId)).toEqual(["w:0", "w:8", "w:13", "w:15", "w:21"]);
    expect(first).toMatchObject({
      number: 1,
      requests: 5,
      peakTokens: 7100,
      warning: { seq: 5, tokens: 6300 },
      rolledOver: { seq: 8, tokens: 7100, reason: "on-send" },
      rows: 7,
    });
    expect(first?.lines).toEqual({ warnAt: 6000, threshold: 7000, hardCeiling: 7500 });
    expect(first?.toolOutputTokens).toBeGreaterThan(0);
    expect(second).toMatchObject({ kind: "rollover", requests: 2, peakTokens: 4000, warning: null, rolledOver: null });
    expect(third).toMatchObject({ kind: "compaction", requests: 1, toolOutputTokens: 0 });
    expect(fourth).toMatchObject({
      kind: "reset",
      warning: { seq: 19, tokens: 6500 },
      rolledOver: { seq: 21, tokens: 6900, reason: "mid-stream" },
    });
    expect(fifth).toMatchObject({ active: true, requests: 1, peakTokens: 1000 });
  });

  it("reads only the windows asked for in detail, and still draws every boundary", async () => {
    const timeline = await readTimeline({
      store: await fixture(),
      sessionId: "t",
      settings,
      detail: { windowIds: ["w:21"] },
    });
    expect(timeline.points.map((point) => point.seq)).toEqual([24]);
    expect(timeline.windows.map((window) => window.detailed)).toEqual([false, false, false, false, true]);
    expect(timeline.windows[0]).toMatchObject({
      requests: null,
      peakTokens: null,
      rolledOver: { seq: 8, tokens: 7100 },
      limit: 10_000,
    });
    expect(timeline.marks.map((mark) => mark.kind)).toEqual(["rollover", "compaction", "clear", "rollover"]);
  });

  it("draws no proactive lines when the strategy is off, and no lines without a known limit", async () => {
    const timeline = await readTimeline({
      store: await fixture(),
      sessionId: "t",
      settings: { ...settings, strategy: "off" },
    });
    expect(timeline.windows[0]?.lines).toEqual({ warnAt: null, threshold: null, hardCeiling: 7500 });
    const empty = openStore({ backend: "memory" });
    await empty.append("plain", [
      { role: "user", parts: [{ type: "text", text: "hi" }] },
      { role: "assistant", parts: [{ type: "text", text: "hello" }] },
    ]);
    const plain = await readTimeline({ store: empty, sessionId: "plain", settings });
    expect(plain.points).toEqual([]);
    expect(plain.windows).toMatchObject([{ windowId: "w:0", requests: 0, peakTokens: null, lines: null, limit: null }]);
    await empty.close();
  });

  it("is empty for an unknown session", async () => {
    const timeline = await readTimeline({ store: await fixture(), sessionId: "nobody", settings });
    expect(timeline).toMatchObject({ windows: [], points: [], marks: [] });
  });
});
