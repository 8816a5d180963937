/**
 * The session through the real `@ai-sdk/anthropic` package against a local fake of the Messages
 * API: what each request asks for (the output limit) and how refusals and mid-stream failures end.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { afterEach, describe, expect, it } from "vitest";
import { createAgentSession } from "./create-agent-session.js";
import { startAnthropicMessagesServer, type AnthropicMessagesServer, type AnthropicScriptedResponse } from "./test-support/anthropic-messages-server.js";
import { deterministic, memoryStore } from "./test-support/session-fixture.js";

let server: AnthropicMessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function anthropicSession(script: readonly AnthropicScriptedResponse[], budget: { contextLimit?: number; outputReserve?: number } = {}) {
  server = await startAnthropicMessagesServer({ script });
  const provider = createAnthropic({ baseURL: server.baseURL, apiKey: "test-key" });
  const session = createAgentSession({ store: memoryStore(), sessionId: "s", model: provider("claude-sonnet-4-5"), budget, maxRetries: 0, ...deterministic() });
  return { session, server };
}

describe("session through @ai-sdk/anthropic against a local Messages API", () => {
  it("asks for the budget's output reserve as max_tokens, not the SDK's default of the model maximum", async () => {
    const { session, server } = await anthropicSession([{ text: "Hello." }]);
    const result = await session.send("Hi.");
    expect(result).toMatchObject({ status: "completed", text: "Hello." });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.max_tokens).toBe(8192);
  });

  it("treats 'input length and max_tokens exceed context limit' as context-exceeded: one emergency rollover and one retry", async () => {
    const refusal = { type: "invalid_request_error", message: "input length and `max_tokens` exceed context limit: 137360 + 64000 > 200000, decrease input length or `max_tokens` and try again" };
    const { session, server } = await anthropicSession([{ text: "First answer." }, { status: 400, error: refusal }, { text: "After the rollover." }]);
    await session.send("First question.");
    const result = await session.send("Second question.");
    expect(result).toMatchObject({ status: "completed", text: "After the rollover." });
    expect(result.rollovers).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
    expect(JSON.stringify(server.requests[2]!.messages)).not.toContain("First answer.");
  });

  it("ends a send that fails mid-stream (overloaded_error after output started) with one readable line, never [object Object]", async () => {
    const { session } = await anthropicSession([{ text: "Partial answ", midStreamError: { type: "overloaded_error", message: "Overloaded" } }]);
    const errors: Error[] = [];
    session.on("error", (event) => errors.push(event.error));
    const result = await session.send("Hi.");
    expect(result.status).toBe("failed");
    const message = result.error?.message ?? "";
    expect(message).toContain("Overloaded");
    expect(message).not.toContain("[object Object]");
    expect(errors.map((error) => error.message).join("\n")).not.toContain("[object Object]");
  });
});
