/**
 * Integers written as text (MCP Inspector 0.15 sends every argument as a string): a canonical
 * decimal string is read as the integer, anything else is refused as before, and the schema the
 * model sees still says integer.
 */
import { asSchema } from "ai";
import { describe, expect, it } from "vitest";
import { openStore } from "../../store/open-store.js";
import { sessionHistoryTool } from "./session-history-tool.js";
import { callTool, expectError, expectOk } from "./test-support/call-tool.js";
import * as rows from "./test-support/history-rows.js";

async function historyWithRows() {
  const store = openStore({ backend: "memory" });
  await store.append("s1", [
    rows.userText("first deploy note"),
    rows.assistantText("abcdefghij deploy"),
    rows.userText("third deploy note"),
  ]);
  return sessionHistoryTool({ store, sessionId: "s1" });
}

describe("session_history integers written as text", () => {
  it("reads a canonical decimal string wherever an integer is expected", async () => {
    const historyTool = await historyWithRows();
    const items = expectOk(
      await callTool(historyTool, { action: "list_items", limit: "1", max_item_chars: "20" }),
      "list_items",
    );
    expect(items.items.map((item) => item.item_id)).toEqual(["1"]);
    expect(items.has_more).toBe(true);
    expect(
      expectOk(await callTool(historyTool, { action: "list_windows", limit: "1" }), "list_windows").windows,
    ).toHaveLength(1);
    const literal = expectOk(await callTool(historyTool, { action: "search", query: "deploy", limit: "2" }), "search");
    expect(literal.hits.map((hit) => hit.item_id)).toEqual(["3", "2"]);
    const ranked = expectOk(
      await callTool(historyTool, { action: "search", query: "deploy", mode: "ranked", limit: "1", offset: "1" }),
      "search",
    );
    expect(ranked.hits).toHaveLength(1);
    const page = expectOk(
      await callTool(historyTool, { action: "read_item", item_id: "2", offset_chars: "2", limit_chars: "3" }),
      "read_item",
    );
    expect(page).toMatchObject({ offset_chars: 2, text: "cde", next_offset_chars: 5 });
  });

  it("refuses any other text with the error a wrong number gets", async () => {
    const historyTool = await historyWithRows();
    for (const text of ["5.5", "1e3", "", " 5", "5 ", "+5", "05", "-0", "0x10", "five", "99999999999999999999"]) {
      const result = expectError(await callTool(historyTool, { action: "list_items", limit: text }), "invalid_input");
      expect(result.error.message).toBe(
        `Invalid input: limit must be an integer from 1 to 50 (search: up to 25); got ${JSON.stringify(text)}.`,
      );
    }
    for (const [input, message] of [
      [{ action: "list_items", limit: "0" }, 'limit must be an integer from 1 to 50 (search: up to 25); got "0"'],
      [{ action: "list_items", limit: "-3" }, 'limit must be an integer from 1 to 50 (search: up to 25); got "-3"'],
      [{ action: "list_items", limit: "51" }, 'limit must be an integer from 1 to 50 (search: up to 25); got "51"'],
      [
        { action: "read_item", item_id: "1", limit_chars: "16001" },
        'limit_chars must be an integer from 1 to 16000; got "16001"',
      ],
      [
        { action: "read_item", item_id: "1", offset_chars: "-1" },
        'offset_chars must be a non-negative integer; got "-1"',
      ],
      [
        { action: "search", query: "deploy", max_item_chars: "19" },
        'max_item_chars must be an integer from 20 to 500; got "19"',
      ],
      [
        { action: "search", query: "deploy", mode: "ranked", offset: "1001" },
        'offset must be an integer from 0 to 1000; got "1001"',
      ],
    ] as const) {
      const result = expectError(await callTool(historyTool, input), "invalid_input");
      expect(result.error.message).toBe(`Invalid input: ${message}.`);
    }
    // Past the schema's bound, the action's own: the same words as for the number.
    const search = expectError(
      await callTool(historyTool, { action: "search", query: "deploy", limit: "26" }),
      "invalid_input",
    );
    expect(search.error.message).toBe("search limit must be an integer from 1 to 25; got 26.");
  });

  it("still shows the model integers, never strings", async () => {
    const historyTool = await historyWithRows();
    const schema = (await asSchema(historyTool.inputSchema).jsonSchema) as {
      properties: Record<string, { anyOf?: unknown[] }>;
    };
    for (const [field, bounds] of [
      ["limit", { minimum: 1, maximum: 50 }],
      ["offset", { minimum: 0, maximum: 1000 }],
      ["max_item_chars", { minimum: 20, maximum: 500 }],
      ["offset_chars", { minimum: 0, maximum: Number.MAX_SAFE_INTEGER }],
      ["limit_chars", { minimum: 1, maximum: 16_000 }],
    ] as const) {
      expect(schema.properties[field]!.anyOf, field).toEqual([{ type: "integer", ...bounds }, { type: "null" }]);
    }
  });
});
