import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { RowInput } from "../core/row.js";
import { openStore } from "../store/open-store.js";
import type { HistoryStore } from "../store/port.js";
import { rollover, text } from "../store/test-support/conformance-rows.js";
import { createWindowCache } from "./session-windows.js";
import { windowViews } from "./window-views.js";

/**
 * A session of one text row a window, the windows parted by rollovers whose previous window held
 * `contextTokens` of a `maxTokens` limit, one `[contextTokens, maxTokens]` pair a rollover.
 */
const windowsParted = (figures: Array<[contextTokens: number, maxTokens: number]>): RowInput[] => [
  text("a"),
  ...figures.flatMap(([contextTokens, maxTokens], index) => [
    rollover(`r${index + 1}`, "w:0", { contextTokens, maxTokens }),
    text(`after r${index + 1}`),
  ]),
];

/** The store, with a count of the single-row reads made through it. */
function countingReads(store: HistoryStore): { store: HistoryStore; reads: () => number } {
  let reads = 0;
  const counted: HistoryStore = {
    ...store,
    read: (...parameters) => {
      reads += 1;
      return store.read(...parameters);
    },
  };
  return { store: counted, reads: () => reads };
}

describe("windowViews", () => {
  const stores: HistoryStore[] = [];
  const openTemporary = () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-window-views-")), "ctxwin.db");
    const store = openStore({ path: file });
    stores.push(store);
    return { store, file };
  };
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });

  it("takes each rollover's percentage from the window summaries, without reading a row", async () => {
    const { store: inner } = openTemporary();
    await inner.append(
      "s",
      windowsParted([
        [1420, 2000],
        [999, 1000],
        [5, 0],
      ]),
    );
    const { store, reads } = countingReads(inner);
    const views = await windowViews({
      store,
      sessionId: "s",
      windows: await createWindowCache({ store }).windowsOf("s"),
    });
    expect(views.map(({ windowId, kind, reason, percent }) => ({ windowId, kind, reason, percent }))).toEqual([
      { windowId: "w:0", kind: "initial", reason: undefined, percent: undefined },
      { windowId: "w:2", kind: "rollover", reason: "on-send", percent: 71 },
      { windowId: "w:4", kind: "rollover", reason: "on-send", percent: 100 },
      // A limit of 0 gives no percentage.
      { windowId: "w:6", kind: "rollover", reason: "on-send", percent: undefined },
    ]);
    expect(reads()).toBe(0);
  });

  it("reads the boundary once for a rollover summary without figures (written by a format-2 process)", async () => {
    const { store: inner, file } = openTemporary();
    await inner.append(
      "fallback",
      windowsParted([
        [300, 1000],
        [600, 1000],
      ]),
    );
    const db = new Database(file);
    db.prepare("UPDATE ctxwin_windows SET context_tokens = NULL, max_tokens = NULL WHERE window_seq = 2").run();
    db.close();
    const { store, reads } = countingReads(inner);
    const windows = await createWindowCache({ store }).windowsOf("fallback");
    expect(windows.windows.map((window) => window.contextTokens)).toEqual([undefined, undefined, 600]);
    const percents = async () =>
      (await windowViews({ store, sessionId: "fallback", windows })).map((view) => view.percent);
    expect(await percents()).toEqual([undefined, 30, 60]);
    expect(reads()).toBe(1);
    expect(await percents()).toEqual([undefined, 30, 60]);
    expect(reads()).toBe(1);
  });
});
