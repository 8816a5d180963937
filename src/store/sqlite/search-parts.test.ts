import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RowInput } from "../../core/row.js";
import { withLineage } from "../lineage/with-lineage.js";
import type { SearchOptions } from "../port.js";
import { createSqliteBackend } from "./sqlite-store.js";

const VOCABULARY = [
  "ledger",
  "migration",
  "deploy",
  "invoice",
  "parser",
  "cache",
  "router",
  "schema",
  "budget",
  "rollback",
  "staging",
  "quartz",
];

/** Row `seq` of a session: a few words of the vocabulary, the rarer ones (late in the list) seldom. */
function rowAt(seq: number, salt: number): RowInput {
  const words: string[] = [];
  for (let index = 0; index < 3 + ((seq * 7 + salt) % 6); index += 1) {
    const pick = (seq * 31 + index * 17 + salt * 13) % 97;
    words.push(VOCABULARY[pick < 60 ? pick % 4 : pick < 90 ? 4 + (pick % 6) : 10 + (pick % 2)] ?? "ledger");
  }
  return {
    role: seq % 2 === 0 ? "assistant" : "user",
    parts: [{ type: "text", text: `${words.join(" ")} at ${seq}` }],
  };
}

let directory: string | undefined;
afterEach(() => {
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

describe("searchParts on SQLite (a fork's ranked search in one walk of the word index)", () => {
  it("gives a fork the same ranked pages as one search per part, whether or not the parts can share a walk", async () => {
    directory = mkdtempSync(path.join(tmpdir(), "ctxwin-search-parts-"));
    const backend = createSqliteBackend({
      path: path.join(directory, "ctxwin.db"),
      durability: "normal",
      onWarning: () => undefined,
    });
    const searchParts = vi.fn(backend.searchParts);
    const merged = withLineage({ ...backend, searchParts });
    const separate = withLineage({ ...backend, searchParts: undefined });
    try {
      for (let start = 1; start <= 900; start += 50) {
        await merged.append(
          "origin",
          Array.from({ length: 50 }, (_unused, index) => rowAt(start + index, 1)),
        );
        await merged.append(
          "other",
          Array.from({ length: 5 }, (_unused, index) => rowAt(start + index, 2)),
        );
      }
      await merged.fork("origin", { atSeq: 800, newSessionId: "near" });
      await merged.append(
        "near",
        Array.from({ length: 20 }, (_unused, index) => rowAt(801 + index, 3)),
      );
      await merged.fork("origin", { atSeq: 120, newSessionId: "many-own" });
      await merged.append(
        "many-own",
        Array.from({ length: 600 }, (_unused, index) => rowAt(121 + index, 4)),
      );
      // A session written in one run, and its fork's own rows right after: ranges of their rows only.
      for (let start = 1; start <= 700; start += 100)
        await merged.append(
          "solo",
          Array.from({ length: 100 }, (_unused, index) => rowAt(start + index, 6)),
        );
      await merged.fork("solo", { atSeq: 650, newSessionId: "solo-fork" });
      await merged.append(
        "solo-fork",
        Array.from({ length: 10 }, (_unused, index) => rowAt(651 + index, 7)),
      );
      await merged.fork("near", { atSeq: 810, newSessionId: "fork-of-fork" });
      await merged.append("fork-of-fork", [rowAt(811, 5), rowAt(812, 5)]);

      const searches: SearchOptions[] = [
        { query: "ledger", mode: "ranked", limit: 10 },
        { query: "quartz staging", mode: "ranked", limit: 5 },
        { query: "quartz staging", mode: "ranked", limit: 7, offset: 3 },
        { query: "ledger migration rollback", mode: "ranked", limit: 50 },
        { query: "parser budget", mode: "ranked", limit: 20, order: "newest" },
        { query: "cache", mode: "ranked", limit: 10, role: "user" },
        { query: "ledger", mode: "ranked", limit: 10, beforeSeq: 805 },
        { query: "absentword", mode: "ranked", limit: 10 },
      ];
      for (const sessionId of ["near", "solo-fork", "many-own", "fork-of-fork"]) {
        for (const options of searches) {
          expect(await merged.search(sessionId, options), `${sessionId} ${JSON.stringify(options)}`).toEqual(
            await separate.search(sessionId, options),
          );
        }
      }
      // The shared walk served the fork whose own rows lie close above its origin's.
      expect(searchParts.mock.calls.some(([parts]) => parts[0]?.sessionId === "near")).toBe(true);
      expect(searchParts.mock.calls.some(([parts]) => parts[0]?.sessionId === "solo-fork")).toBe(true);
    } finally {
      await backend.close();
    }
  });
});
