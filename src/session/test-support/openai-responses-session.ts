/**
 * A session through the real `@ai-sdk/openai` package (the Responses API, its default) against a local fake of
 * `POST /v1/responses`; the fake is closed after each test.
 */
import { createOpenAI } from "@ai-sdk/openai";
import type { AgentSessionOptions } from "../session-types.js";
import { startOpenAIResponsesServer } from "./openai-responses-server.js";
import { closeAfterEach, providerSession } from "./provider-session.js";

const closedAfterTest = closeAfterEach();

/**
 * A fake playing `script`, and a {@link providerSession} on the provider's `modelId` pointed at it (no retries unless
 * `options` ask for them).
 *
 * @example const { session, server } = await responsesSession([{ text: "Hi." }], { sessionId: "build-42" });
 */
export async function responsesSession(
  script: Parameters<typeof startOpenAIResponsesServer>[0]["script"],
  {
    modelId = "gpt-4.1",
    ...options
  }: { modelId?: string; sessionId?: string } & Partial<
    Omit<AgentSessionOptions, "store" | "sessionId" | "model">
  > = {},
) {
  const server = closedAfterTest(await startOpenAIResponsesServer({ script }));
  const provider = createOpenAI({ baseURL: server.baseURL, apiKey: "test-key" });
  return { server, ...providerSession({ model: provider(modelId), maxRetries: 0, ...options }) };
}
