/**
 * Conformance cases (issue 27): search never returns the agent's own history lookups — calls of
 * `session_history`, as ctxwin names it or as an MCP client does — while they stay readable, and
 * what the agent wrote elsewhere (memory, a `new_context` handoff) stays a hit. Test-only.
 */
import { beforeEach, describe, expect } from "vitest";
import type { RowInput } from "../../core/row.js";
import type { ConformanceSuite } from "./conformance-search.js";
import { reply, text } from "./conformance-rows.js";

const call = (toolName: string, input: unknown, output: unknown): RowInput["parts"][number] =>
  ({
    type: "dynamic-tool",
    toolName,
    toolCallId: `call-${toolName}-${JSON.stringify(input).length}`,
    state: "output-available",
    input,
    output,
  }) as RowInput["parts"][number];

/**
 * @example describeHistoryLookupConformance({ get store() { return store; }, test });
 */
export function describeHistoryLookupConformance(suite: ConformanceSuite): void {
  const { test } = suite;
  describe("search leaves out history lookups", () => {
    beforeEach(async () => {
      await suite.store.append("lookups", [
        text("The staging codename is PELICAN-77, the port 5433."), // 1: the evidence
        {
          role: "assistant",
          parts: [
            call(
              "session_history",
              { action: "search", query: "PELICAN-77 port" },
              { hits: [{ snippet: "codename PELICAN-77" }] },
            ),
          ],
        }, // 2
        {
          role: "assistant",
          parts: [
            call("mcp__ctxwin__session_history", { action: "search", query: "PELICAN-77" }, "codename PELICAN-77"),
          ],
        }, // 3
        {
          role: "assistant",
          parts: [
            reply("Looking it up.").parts[0]!,
            call("session_history", { action: "search", query: "PELICAN-77" }, "…"),
          ],
        }, // 4
        {
          role: "assistant",
          parts: [
            call(
              "memory",
              {
                command: "create",
                path: "/memories/workspace/context-notes.md",
                file_text: "PELICAN-77 uses port 5433",
              },
              "created",
            ),
          ],
        }, // 5
        {
          role: "assistant",
          parts: [call("new_context", { handoff: "Continue the PELICAN-77 migration." }, "rolling over")],
        }, // 6
        {
          role: "assistant",
          parts: [
            call("session_history", { action: "read_item", item_id: "1" }, "x"),
            call("grep", { pattern: "PELICAN" }, "notes.md: PELICAN-77"),
          ],
        }, // 7
      ]);
    });

    test("literal and ranked search never return a lookup, and return what the agent wrote elsewhere", async () => {
      for (const mode of ["literal", "ranked"] as const) {
        const page = await suite.store.search("lookups", { query: "PELICAN-77", mode, limit: 25 });
        expect(page.hits.map((hit) => hit.row.seq).sort((a, b) => a - b)).toEqual([1, 5, 6, 7]);
      }
      expect(
        (await suite.store.search("lookups", { query: "looking it up", mode: "literal" })).hits.map(
          (hit) => hit.row.seq,
        ),
      ).toEqual([4]);
      expect((await suite.store.search("lookups", { query: "read_item", mode: "literal" })).hits).toEqual([]);
    });

    test("the item after a lookup is not found by the lookup's words: a ranked entry's context is indexed text only (ADR 0052)", async () => {
      await suite.store.append("after-lookup", [
        text("ordinary planning notes"),
        {
          role: "assistant",
          parts: [call("session_history", { action: "search", query: "zebra crossing" }, "no hits")],
        },
        reply("Nothing found, so I will ask the user."),
      ]);
      for (const mode of ["literal", "ranked"] as const) {
        expect((await suite.store.search("after-lookup", { query: "zebra crossing", mode })).hits).toEqual([]);
      }
      // The lookup has no filter terms either (ADR 0051): a filter on the history tool finds nothing.
      expect(
        (await suite.store.search("after-lookup", { query: "no hits", mode: "literal", toolName: "session_history" }))
          .hits,
      ).toEqual([]);
    });

    test("a lookup stays readable by its item id", async () => {
      const row = await suite.store.read("lookups", 2);
      expect(row?.parts[0]).toMatchObject({ toolName: "session_history", input: { query: "PELICAN-77 port" } });
      expect((await suite.store.items("lookups", { afterSeq: 1, limit: 2 })).rows.map((item) => item.seq)).toEqual([
        2, 3,
      ]);
    });
  });
}
