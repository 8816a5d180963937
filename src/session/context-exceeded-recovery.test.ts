import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { rolloverMetaOf } from "../core/boundary.js";
import { ContextExceededError } from "./errors.js";
import { scriptedModel } from "./test-support/scripted-model.js";
import { memoryStore, rowText } from "./test-support/session-fixture.js";
import { budgetSession, tooLong } from "./test-support/rollover-setup.js";

describe("provider context_exceeded", () => {
  it("gets one emergency rollover (no flush opportunity) and one retry with the same input in the fresh window", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({
      script: [
        { text: "first answer", inputTokens: 3_000 },
        { error: tooLong() },
        { text: "retried answer", inputTokens: 400 },
      ],
    });
    const session = budgetSession({ store, model });
    await session.send("first question");

    const result = await session.send("second question");

    expect(result).toMatchObject({ status: "completed", text: "retried answer" });
    expect(result.rollovers).toEqual([
      expect.objectContaining({ reason: "context-exceeded", flushOpportunity: false, previousWindowId: "w:0" }),
    ]);
    expect(calls).toHaveLength(3);
    expect(calls[2]!.text).not.toContain("first question");
    expect(calls[2]!.text.split("\n").at(-1)).toBe("user: second question");
    expect(calls[2]!.text).toContain("refused the previous request as too long");
    // The original input stays where it was; the copy rides in the fresh window.
    const all = (await store.items("s", { limit: 100 })).rows;
    expect(all.filter((row) => rowText(row) === "second question")).toHaveLength(2);
    const boundary = all.find((row) => row.boundary !== undefined);
    expect(rolloverMetaOf(boundary!)).toMatchObject({ reason: "context-exceeded", flushOpportunity: false });
  });

  it("fails clearly on a second refusal, without looping", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({
      script: [{ text: "first answer" }, { error: tooLong() }, { error: tooLong() }, { text: "never" }],
    });
    const session = budgetSession({ store, model });
    const errors: Error[] = [];
    session.on("error", (event) => errors.push(event.error));
    await session.send("first question");
    const result = await session.send("second question");
    expect(result.status).toBe("failed");
    expect(ContextExceededError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(/even in a fresh context window/);
    expect(errors).toEqual([result.error]);
    expect(calls).toHaveLength(3);
  });

  it("fails at once when the window is already fresh: a rollover could not help", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({ script: [{ error: tooLong() }, { text: "never" }] });
    const session = budgetSession({ store, model });
    const errors: Error[] = [];
    session.on("error", (event) => errors.push(event.error));
    const result = await session.send("hello");
    expect(result.status).toBe("failed");
    expect(ContextExceededError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(/already fresh/);
    expect(errors).toEqual([result.error]);
    expect(calls).toHaveLength(1);
    const all = (await store.items("s", { limit: 100 })).rows;
    expect(all.some((row) => row.boundary !== undefined)).toBe(false);
    // Acknowledged input is never lost.
    expect(all.map(rowText)).toEqual(["hello"]);
  });

  it("does not treat other provider errors as context_exceeded", async () => {
    const store = memoryStore();
    const unauthorized = new APICallError({
      message: "Unauthorized",
      url: "http://127.0.0.1:1",
      requestBodyValues: {},
      statusCode: 401,
      responseBody: '{"error":{"code":"invalid_api_key"}}',
      isRetryable: false,
    });
    const { model, calls } = scriptedModel({ script: [{ text: "a" }, { error: unauthorized }] });
    const session = budgetSession({ store, model });
    await session.send("one");
    const result = await session.send("two");
    expect(result.status).toBe("failed");
    expect(result.rollovers).toEqual([]);
    expect(calls).toHaveLength(2);
  });
});
