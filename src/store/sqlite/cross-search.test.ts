import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RowInput } from "../../core/row.js";
import { CROSS_FILTER_EXAMINE_LIMIT } from "../cross-search/cross-search.js";
import type { HistoryStore } from "../port.js";
import { reset, text } from "../test-support/conformance-rows.js";
import { createSqliteStore } from "./sqlite-store.js";

describe("SQLite cross-session search keeps the sessions rows only while the file is unchanged (ADR 0089)", () => {
  const opened: HistoryStore[] = [];
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  it("a clear made through another connection applies to the next search at once", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-cross-")), "ctxwin.db");
    const reader = createSqliteStore({ path: file });
    const writer = createSqliteStore({ path: file });
    opened.push(reader, writer);
    await writer.append("s", [text("the walnut secret")]);
    expect(
      (await reader.searchSessions({ query: "walnut secret", mode: "literal" })).hits.map((hit) => hit.sessionId),
    ).toEqual(["s"]);
    await writer.append("s", [reset()]);
    expect((await reader.searchSessions({ query: "walnut secret", mode: "literal" })).hits).toEqual([]);
    await writer.append("t", [text("a walnut secret too")]);
    expect(
      (await reader.searchSessions({ query: "walnut secret", mode: "ranked" })).hits.map((hit) => hit.sessionId),
    ).toEqual(["t"]);
  });
});

describe("SQLite cross-session search with a filter looks at a bounded number of rows (ADR 0093)", () => {
  it("says partial past its bound of rows that do not pass (literal 2,000, ranked 10,000), finding the row above it", async () => {
    const store = createSqliteStore({
      path: path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-cross-")), "ctxwin.db"),
      durability: "normal",
    });
    try {
      const grep: RowInput = {
        role: "assistant",
        parts: [
          {
            type: "tool-Grep",
            toolCallId: "g",
            state: "output-available",
            input: { pattern: "n" },
            output: "n",
          },
        ],
      };
      await store.append("s", [
        grep,
        ...Array.from({ length: CROSS_FILTER_EXAMINE_LIMIT }, (_, index) => text(`n ${index}`)),
      ]);
      for (const mode of ["literal", "ranked"] as const) {
        const page = await store.searchSessions({ query: "n", mode, toolName: "grep" });
        expect([page.hits, page.partial]).toEqual([[], true]);
      }
      await store.append("t", [grep]);
      const page = await store.searchSessions({ query: "n", mode: "literal", toolName: "grep" });
      expect([page.hits.map((hit) => hit.sessionId), page.partial]).toEqual([["t"], true]);
    } finally {
      await store.close();
    }
  });
});
