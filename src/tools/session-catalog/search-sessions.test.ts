import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LITERAL_SCAN_LIMIT } from "../../store/filtered-scan.js";
import { openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";
import * as rows from "../session-history/test-support/history-rows.js";
import type { SearchResult } from "../session-history/results.js";
import type { SearchSessionsResult } from "./catalog-results.js";
import { createStoreHistory } from "./store-history.js";

describe("cross-session search with queries that are bad or costly to miss (ADR 0051)", () => {
  let store: HistoryStore;
  beforeEach(async () => {
    store = openStore({ path: path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-catalog-")), "ctxwin.db") });
    const fillers = Array.from({ length: LITERAL_SCAN_LIMIT + 100 }, (_unused, index) => rows.assistantText(`routine note ${index}`));
    await store.append("long", [rows.userText("the ~~ marker, long ago"), ...fillers]);
    await store.append("short", [rows.userText("a ~~ marker"), rows.assistantText("noted")]);
  });
  afterEach(async () => {
    await store.close();
  });

  it("refuses a ranked query of stop words only before searching any session", async () => {
    const history = createStoreHistory({ store });
    expect(await history.execute({ action: "search", query: "What did we do?", mode: "ranked" })).toMatchObject({
      ok: false,
      error: { code: "invalid_query", message: expect.stringMatching(/common English word.*literal mode/) },
    });
  });

  it("lists a session whose search stopped at the scan bound without hits, and searching it by id finds the rest", async () => {
    const history = createStoreHistory({ store });
    const result = (await history.execute({ action: "search", query: "~~" })) as SearchSessionsResult;
    expect(result.ok).toBe(true);
    const bySession = Object.fromEntries(result.results.map((group) => [group.session_id, [group.hits.map((hit) => hit.item_id), group.more_hits_in_session]]));
    expect(bySession).toEqual({ short: [["1"], false], long: [[], true] });
    const first = (await history.execute({ action: "search", session_id: "long", query: "~~" })) as SearchResult;
    expect([first.hits, first.note === undefined, first.next]).toEqual([[], false, { before_item: expect.any(String) }]);
    const second = (await history.execute({ action: "search", session_id: "long", query: "~~", ...first.next })) as SearchResult;
    expect([second.hits.map((hit) => hit.item_id), second.has_more]).toEqual([["1"], false]);
  });
});
