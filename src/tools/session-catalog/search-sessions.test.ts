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
    const fillers = Array.from({ length: LITERAL_SCAN_LIMIT + 100 }, (_unused, index) =>
      rows.assistantText(`routine note ${index}`),
    );
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

  it("finds a match past a session's scan bound in one call (ADR 0089), and searching that session by id pages to it", async () => {
    const history = createStoreHistory({ store });
    const result = (await history.execute({ action: "search", query: "~~" })) as SearchSessionsResult;
    expect(result.ok).toBe(true);
    const bySession = Object.fromEntries(
      result.results.map((group) => [
        group.session_id,
        [group.hits.map((hit) => hit.item_id), group.more_hits_in_session],
      ]),
    );
    expect(bySession).toEqual({ short: [["1"], false], long: [["1"], false] });
    const first = (await history.execute({ action: "search", session_id: "long", query: "~~" })) as SearchResult;
    expect([first.hits, first.note === undefined, first.next]).toEqual([
      [],
      false,
      { before_item: expect.any(String) },
    ]);
    const second = (await history.execute({
      action: "search",
      session_id: "long",
      query: "~~",
      ...first.next,
    })) as SearchResult;
    expect([second.hits.map((hit) => hit.item_id), second.has_more]).toEqual([["1"], false]);
  });
});

describe("cross-session search as one query (issue 51, ADR 0089)", () => {
  let store: HistoryStore;
  beforeEach(async () => {
    store = openStore({ path: path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-catalog-")), "ctxwin.db") });
  });
  afterEach(async () => {
    await store.close();
  });

  it("finds a phrase in one old session among more sessions than one per-session call searched (200), in the first call", async () => {
    await store.append("old", [rows.userText("the flamingo ledger was migrated"), rows.assistantText("done")]);
    for (let index = 0; index < 260; index += 1)
      await store.append(`s${index}`, [rows.userText(`routine session ${index}`), rows.assistantText("ok")]);
    const history = createStoreHistory({ store });
    const result = (await history.execute({ action: "search", query: "flamingo ledger" })) as SearchSessionsResult;
    expect(result.results.map((group) => [group.session_id, group.hits.map((hit) => hit.item_id)])).toEqual([
      ["old", ["1"]],
    ]);
    expect([result.sessions_searched, result.has_more, result.next]).toEqual([261, false, null]);
  });

  it("a role or tool filter and order are part of the one query: found in the first call, paged by hit (ADR 0093)", async () => {
    await store.append("old", [
      rows.userText("the flamingo ledger was migrated"),
      rows.toolCall({ name: "Grep", input: { pattern: "flamingo ledger" }, output: "found" }),
      rows.assistantText("the flamingo ledger is fine"),
    ]);
    for (let index = 0; index < 260; index += 1)
      await store.append(`s${index}`, [rows.userText(`routine session ${index}`), rows.assistantText("ok")]);
    await store.append("new", [rows.userText("flamingo ledger once more")]);
    const history = createStoreHistory({ store });
    const groups = (result: SearchSessionsResult) =>
      result.results.map((group) => [group.session_id, group.hits.map((hit) => hit.item_id)]);
    const search = async (input: object) =>
      (await history.execute({ action: "search", query: "flamingo ledger", ...input })) as SearchSessionsResult;
    const byRole = await search({ role: "assistant" });
    expect(groups(byRole)).toEqual([["old", ["3", "2"]]]);
    expect([byRole.sessions_searched, byRole.has_more, byRole.next]).toEqual([262, false, null]);
    expect(groups(await search({ tool_name: "grep" }))).toEqual([["old", ["2"]]]);
    expect(groups(await search({ role: "user", mode: "ranked", order: "newest" }))).toEqual([
      ["new", ["1"]],
      ["old", ["1"]],
    ]);
    const paged = await search({ role: "user", limit: 1 });
    expect([groups(paged), paged.next]).toEqual([[["new", ["1"]]], { offset: 1 }]);
    expect(groups(await search({ role: "user", limit: 1, ...paged.next }))).toEqual([["old", ["1"]]]);
  });

  it("caps hits per session and pages by hit with offset, never splitting a session over two pages", async () => {
    await store.append(
      "chatty",
      Array.from({ length: 6 }, (_unused, index) => rows.userText(`deploy note ${index}`)),
    );
    await store.append("brief", [rows.userText("one deploy note")]);
    const history = createStoreHistory({ store });
    const first = (await history.execute({ action: "search", query: "deploy note", limit: 2 })) as SearchSessionsResult;
    expect(
      first.results.map((group) => [
        group.session_id,
        group.hits.map((hit) => hit.item_id),
        group.more_hits_in_session,
      ]),
    ).toEqual([["brief", ["1"], false]]);
    expect(first.next).toEqual({ offset: 1 });
    const second = (await history.execute({
      action: "search",
      query: "deploy note",
      limit: 2,
      ...first.next,
    })) as SearchSessionsResult;
    expect(
      second.results.map((group) => [
        group.session_id,
        group.hits.map((hit) => hit.item_id),
        group.more_hits_in_session,
      ]),
    ).toEqual([["chatty", ["6", "5", "4"], true]]);
    expect([second.has_more, second.next]).toEqual([false, null]);
  });
});
