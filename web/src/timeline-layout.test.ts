import { describe, expect, it } from "vitest";
import { chartBox, shortTokens } from "../../src/core/chart/chart-scale.js";
import type { TimelineMark, TimelinePoint, TimelineView, TimelineWindow } from "./api/timeline-types";
import { describeItem, describeWindows, scalesFor, timelineItems } from "./timeline-layout";

const window = (fields: Partial<TimelineWindow> = {}): TimelineWindow => ({
  windowId: "w:1",
  number: 1,
  kind: "start",
  reason: null,
  firstSeq: 1,
  lastSeq: 10,
  rows: 10,
  startedAt: "2026-01-01T00:00:00.000Z",
  endedAt: "2026-01-01T00:01:00.000Z",
  active: true,
  detailed: true,
  limit: 16_000,
  lines: { warnAt: 9_600, threshold: 11_200, hardCeiling: 12_000 },
  requests: 1,
  peakTokens: 4_000,
  warning: null,
  rolledOver: null,
  toolOutputTokens: 0,
  spend: null,
  ...fields,
});

const point = (fields: Partial<TimelinePoint> = {}): TimelinePoint => ({
  seq: 4,
  windowId: "w:1",
  at: "2026-01-01T00:00:30.000Z",
  tokens: 4_000,
  source: "reported",
  limit: 16_000,
  outputTokens: 120,
  cacheReadTokens: 3_000,
  cacheWriteTokens: null,
  costUsd: null,
  toolOutputTokens: 0,
  model: "openai:gpt-4.1-mini",
  ...fields,
});

const mark = (fields: Partial<TimelineMark> = {}): TimelineMark => ({
  kind: "warning",
  seq: 4,
  windowId: "w:1",
  at: "2026-01-01T00:00:30.000Z",
  tokens: 9_700,
  detail: null,
  ...fields,
});

const spend = {
  requests: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  cachedShare: 0,
  costUsd: null,
  uncachedCostUsd: null,
};

const view = (fields: Partial<TimelineView> = {}): TimelineView => ({
  sessionId: "s1",
  settings: { strategy: "rollover", threshold: 0.7, outputReserve: 4_000 },
  windows: [window()],
  overview: [{ windowId: "w:1", number: 1, kind: "start", limit: 16_000, tokens: 4_000 }],
  points: [point()],
  marks: [],
  detailWindowIds: ["w:1"],
  spend,
  ...fields,
});

const labels = (ticks: number[]) => ticks.map(shortTokens);

describe("timeline scales", () => {
  it("puts the y axis top at the largest limit when the figures fit under it, ticks at 0, half and the top", () => {
    const scales = scalesFor(view(), chartBox(800));
    expect(scales.maxTokens).toBe(16_000);
    expect(labels(scales.ticks)).toEqual(["0", "8k", "16k"]);
    const box = chartBox(800);
    expect(scales.y(0)).toBe(box.height - box.bottom);
    expect(scales.y(16_000)).toBe(box.top);
  });

  it("goes above the limit to a round figure when a request exceeded it", () => {
    const scales = scalesFor(view({ points: [point({ tokens: 17_000 })] }), chartBox(800));
    expect(scales.maxTokens).toBe(20_000);
    expect(scales.y(17_000)).toBeGreaterThan(chartBox(800).top);
  });

  it("reads only 0 on the axis of an empty timeline, never '1, 1, 0'", () => {
    const empty = view({ windows: [], overview: [], points: [], detailWindowIds: [] });
    const scales = scalesFor(empty, chartBox(375));
    expect(labels(scales.ticks)).toEqual(["0"]);
    expect(Number.isFinite(scales.y(0)) && Number.isFinite(scales.x(1))).toBe(true);
    const noLimit = view({ windows: [window({ limit: null, lines: null })], points: [] });
    expect(labels(scalesFor(noLimit, chartBox(375)).ticks)).toEqual(["0"]);
  });

  it("gives small figures distinct whole-token ticks", () => {
    const scales = scalesFor(
      view({ windows: [window({ limit: null, lines: null })], points: [point({ tokens: 1, limit: null })] }),
      chartBox(800),
    );
    expect(labels(scales.ticks)).toEqual(["0", "5", "10"]);
    expect(new Set(labels(scales.ticks)).size).toBe(scales.ticks.length);
  });

  it("maps each shown row to x from the first row's left edge to the last row's right edge", () => {
    const box = chartBox(1_000);
    const scales = scalesFor(view(), box);
    expect(scales.x(0.5)).toBe(box.left);
    expect(scales.x(10.5)).toBe(box.width - box.right);
  });
});

describe("timeline items", () => {
  it("lists requests and the shown windows' marks in row order, a request before a mark of its row", () => {
    const items = timelineItems(
      view({
        points: [point({ seq: 4 }), point({ seq: 8 })],
        marks: [mark({ seq: 4 }), mark({ seq: 2, kind: "notes" }), mark({ seq: 5, windowId: "w:0" })],
      }),
    );
    expect(items.map((item) => item.key)).toEqual(["mnotes2", "p4", "mwarning4", "p8"]);
  });

  it("describes a request and a mark in one sentence each", () => {
    const [request, warning] = timelineItems(view({ marks: [mark()] }));
    expect(describeItem(request!, view())).toBe(
      "Request at row #4, window 1: 4,000 tokens sent (25% of 16,000); 75% cached, 120 out",
    );
    expect(describeItem(warning!, view())).toBe("Budget warning (row #4, window 1) at 9,700 tokens");
  });

  it("sums the shown windows when nothing is focused, and says when there is nothing yet", () => {
    expect(describeWindows(view())).toBe("Window 1 of 1: 1 request, the largest 4,000 tokens.");
    expect(describeWindows(view({ overview: [] }))).toBe("No requests yet.");
  });
});
