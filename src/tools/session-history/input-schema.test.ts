import { asSchema } from "ai";
import { describe, expect, it } from "vitest";
import { openStore } from "../../store/open-store.js";
import { describeValue } from "../workspace/input-check.js";
import { SessionHistoryInputSchema, checkInput, permissiveInputSchema } from "./input-schema.js";
import { SESSION_HISTORY_DESCRIPTION, sessionHistoryTool } from "./session-history-tool.js";
import { callTool, expectError, expectOk } from "./test-support/call-tool.js";
import * as rows from "./test-support/history-rows.js";
import { createSynonymEmbeddingModel } from "../../store/test-support/synonym-embedding-model.js";

describe("session_history input schema", () => {
  it("shows the model exactly the strict schema: typed fields, only action required, optional fields nullable", async () => {
    const historyTool = sessionHistoryTool({ store: openStore({ backend: "memory" }), sessionId: "s1" });
    const advertised = await asSchema(historyTool.inputSchema).jsonSchema;
    // With an embedding model the advertised schema is the strict one; without, `mode` leaves out 'hybrid' (ADR 0063).
    const withHybrid = sessionHistoryTool({
      store: openStore({ backend: "memory", embeddings: { model: createSynonymEmbeddingModel() } }),
      sessionId: "s1",
    });
    expect(await asSchema(withHybrid.inputSchema).jsonSchema).toEqual(
      await asSchema(SessionHistoryInputSchema).jsonSchema,
    );
    expect(JSON.stringify((advertised as { properties: Record<string, unknown> }).properties["mode"])).not.toContain(
      "hybrid",
    );
    expect(advertised).toMatchObject({ type: "object", required: ["action"], additionalProperties: false });
    const properties = (
      advertised as { properties: Record<string, { anyOf?: unknown[]; enum?: unknown[]; description?: string }> }
    ).properties;
    expect(properties["action"]!.enum).toEqual(["list_windows", "list_items", "search", "read_item", "list_sessions"]);
    expect(properties["limit"]!.anyOf).toContainEqual({ type: "null" });
    expect(properties["limit"]!.anyOf).toContainEqual({ type: "integer", minimum: 1, maximum: 50 });
    for (const [name, property] of Object.entries(properties)) expect(property.description, name).toBeTruthy();
    expect(historyTool.description).toBe(SESSION_HISTORY_DESCRIPTION);
  });

  it("lets every value through the tool's schema, so execute can answer wrong types with an error result", async () => {
    const schema = asSchema(permissiveInputSchema());
    for (const input of [
      { action: 7, limit: "ten" },
      {},
      [],
      "read",
      null,
      { action: "read_item", item_id: { nested: true }, extra: 1 },
    ]) {
      const validation = await schema.validate!(input);
      expect(validation.success, JSON.stringify(input)).toBe(true);
    }
    const dropped = await schema.validate!({ action: "search", sessionId: "other", query: "x" });
    expect(dropped).toEqual({ success: true, value: { action: "search", query: "x" } });
  });

  it("accepts the nulls strict-mode providers send for fields they leave out", async () => {
    const store = openStore({ backend: "memory" });
    await store.append("s1", [rows.userText("hello")]);
    const everyFieldNull = Object.fromEntries(Object.keys(SessionHistoryInputSchema.shape).map((name) => [name, null]));
    const result = await callTool(sessionHistoryTool({ store, sessionId: "s1" }), {
      ...everyFieldNull,
      action: "list_items",
    });
    expect(expectOk(result, "list_items").items.map((item) => item.preview)).toEqual(["hello"]);
  });

  it("answers wrong types with one error result naming each wrong field, without echoing large values", async () => {
    const historyTool = sessionHistoryTool({ store: openStore({ backend: "memory" }), sessionId: "s1" });
    const cases: [unknown, string[]][] = [
      [{}, ["action must be one of", "it is missing"]],
      ["read_item", ["action must be one of"]],
      [[1, 2], ["action must be one of"]],
      [{ action: "delete_everything" }, ['got "delete_everything"']],
      [{ action: "list_windows", limit: "ten" }, ["limit must be an integer from 1 to 50", 'got "ten"']],
      [{ action: "list_windows", limit: 2.5 }, ["limit must be an integer", "got 2.5"]],
      [{ action: "list_windows", limit: -4 }, ["got -4"]],
      [{ action: "list_windows", limit: 1e12 }, ["got 1000000000000"]],
      [{ action: "list_items", window_id: 3 }, ["window_id must be a window id"]],
      [
        { action: "search", query: ["a"], mode: true },
        ["query must be a string", "mode must be 'literal', 'ranked' or 'hybrid'; got true"],
      ],
      [
        { action: "read_item", item_id: "1", offset_chars: "x".repeat(5_000) },
        ["offset_chars must be a non-negative integer", "got a string of 5000 characters"],
      ],
      [{ action: "read_item", item_id: true }, ["item_id must be an item id"]],
    ];
    for (const [input, fragments] of cases) {
      const result = expectError(await callTool(historyTool, input), "invalid_input");
      for (const fragment of fragments)
        expect(result.error.message, JSON.stringify(input).slice(0, 60)).toContain(fragment);
      expect(result.error.message.length).toBeLessThan(500);
    }
  });

  it("checks input without the tool, for other front ends", () => {
    expect(checkInput({ action: "read_item", item_id: "7" })).toEqual({
      ok: true,
      input: { action: "read_item", item_id: "7" },
    });
    expect(checkInput({ action: "read_item", item_id: 7.5 })).toMatchObject({ ok: false });
    expect(describeValue("x".repeat(41))).toBe("a string of 41 characters");
    expect(describeValue({ a: 1 })).toBe("a value of type object");
  });

  it("refuses a session id it could never read at construction, as a programming error", () => {
    expect(() => sessionHistoryTool({ store: openStore({ backend: "memory" }), sessionId: "" })).toThrow(/sessionId/);
  });
});
