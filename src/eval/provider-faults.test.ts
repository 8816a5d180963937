/**
 * Provider faults through the real OpenAI-compatible provider package and a local server: a 429,
 * a model that refuses tools, a server that is not there. Each is a failed result in the run, and
 * a fault that repeats stops the run with its reason — never an exception that loses the results.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { afterEach, describe, expect, it } from "vitest";
import { resolveModel } from "../agent/model-flags.js";
import {
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
} from "../session/test-support/openai-compatible-server.js";
import { runEval } from "./run-eval.js";
import { needleItems } from "./suites/needle.js";
import { closedPort } from "../session/test-support/fake-provider-server.js";

const LIMIT = 8_000;
const servers: OpenAICompatibleServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function modelAt(baseUrl: string): LanguageModelV4 {
  return resolveModel({ model: "test-model", baseUrl, contextLimit: LIMIT, env: {} }).model as LanguageModelV4;
}

const runsOf = (count: number) =>
  needleItems({ contextLimit: LIMIT, limit: count, seed: 33 }).map((item) => ({ item, strategy: "rollover" as const }));

describe("provider faults", () => {
  it("a 429 fails only the item it hit; the next item runs and is scored", async () => {
    const server = await startOpenAICompatibleServer({
      script: (request) =>
        request.index === 0
          ? { error: { status: 429, message: "Rate limit reached for requests", type: "rate_limit_exceeded" } }
          : { text: "Noted." },
    });
    servers.push(server);
    const { results, stopped } = await runEval({
      runs: runsOf(2),
      model: modelAt(server.baseURL),
      contextLimit: LIMIT,
      maxRetries: 0,
    });
    expect(stopped).toBeUndefined();
    expect(results.map((result) => result.status)).toEqual(["failed", "scored"]);
    expect(results[0]!.error).toMatch(/Rate limit reached/);
    expect(results[1]!.inputTokens).toBeGreaterThan(0);
  });

  it("a model without tool calling fails every item; the run stops after three with the provider's reason", async () => {
    const server = await startOpenAICompatibleServer({
      script: () => ({
        error: { status: 400, message: "test-model does not support tools", type: "invalid_request_error" },
      }),
    });
    servers.push(server);
    const { results, stopped } = await runEval({
      runs: runsOf(5),
      model: modelAt(server.baseURL),
      contextLimit: LIMIT,
      maxRetries: 0,
    });
    expect(results).toHaveLength(3);
    expect(results.every((result) => result.status === "failed")).toBe(true);
    expect(stopped).toMatch(/^3 items failed in a row, the last with: .*does not support tools/);
  });

  it("an unreachable server: failed items with the connection error, and the run stops", async () => {
    const port = await closedPort();
    const { results, stopped } = await runEval({
      runs: runsOf(4),
      model: modelAt(`http://127.0.0.1:${port}/v1`),
      contextLimit: LIMIT,
      maxRetries: 0,
    });
    expect(results).toHaveLength(3);
    expect(results[0]!.status).toBe("failed");
    expect(stopped).toMatch(/3 items failed in a row/);
  });
});
