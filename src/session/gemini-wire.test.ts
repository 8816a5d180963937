/**
 * The session through the real `@ai-sdk/google` package against a local fake of the Gemini API's
 * streaming endpoint: each request asks for the budget's output reserve (`maxOutputTokens`), roles
 * alternate, a function call travels with its response, the API's "too long" refusal rolls over,
 * and a failure after output started is retried.
 */
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { describe, expect, it } from "vitest";
import {
  startGeminiStreamServer,
  type GeminiRequestBody,
  type GeminiScriptedResponse,
} from "./test-support/gemini-stream-server.js";
import { activeTurns, closeAfterEach, providerSession, readFileTool } from "./test-support/provider-session.js";
import { recordEvents } from "./test-support/session-fixture.js";
import { expectRolloverOnRefusal, refusedAfterFirstAnswer } from "./test-support/context-refusal.js";

const closedAfterTest = closeAfterEach();

async function geminiSession(
  script: readonly GeminiScriptedResponse[],
  { maxRetries = 0, modelId = "gemini-2.5-flash" }: { maxRetries?: number; modelId?: string } = {},
) {
  const server = closedAfterTest(await startGeminiStreamServer({ script }));
  const google = createGoogleGenerativeAI({ baseURL: server.baseURL, apiKey: "test-key" });
  const { session, store } = providerSession({
    model: google(modelId),
    system: "You are a test agent.",
    tools: { read_file: readFileTool },
    maxRetries,
  });
  return { session, server, store };
}

/** Roles of a request's contents, and what each content holds: text, a function call or a function response. */
function contentKinds(body: GeminiRequestBody): string[] {
  return body.contents.map((content) => {
    const part = content.parts[0] ?? {};
    const kind =
      part.functionCall !== undefined
        ? "functionCall"
        : part.functionResponse !== undefined
          ? "functionResponse"
          : "text";
    return `${content.role}:${kind}`;
  });
}

/** The real refusal of a request over the window (Gemini API, 400 INVALID_ARGUMENT). */
const TOO_LONG = {
  code: 400,
  message: "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).",
  status: "INVALID_ARGUMENT",
};

describe("session through @ai-sdk/google against a local Gemini API", () => {
  it("asks for the budget's output reserve as maxOutputTokens and sends the earlier answer as a model turn", async () => {
    const { session, server } = await geminiSession([{ text: "The first answer." }, { text: "The second answer." }]);
    expect(await session.send("First question.")).toMatchObject({ status: "completed", text: "The first answer." });
    expect(await session.send("Second question.")).toMatchObject({ status: "completed", text: "The second answer." });
    expect(server.requests.map((request) => request.model)).toEqual(["gemini-2.5-flash", "gemini-2.5-flash"]);
    expect(server.requests.map((request) => request.body.generationConfig?.maxOutputTokens)).toEqual([8192, 8192]);
    const second = server.requests[1]!.body;
    expect(contentKinds(second)).toEqual(["user:text", "model:text", "user:text"]);
    expect(second.contents[1]!.parts[0]!.text).toBe("The first answer.");
    // The session's system prompt travels as the system instruction, not as a turn.
    expect(second.systemInstruction?.parts.map((part) => part.text).join("")).toContain("You are a test agent.");
  });

  it("never asks for more output than the model's catalog maximum (gemini-2.0-flash: 8,192) even with a larger reserve", async () => {
    const server = closedAfterTest(await startGeminiStreamServer({ script: [{ text: "Short." }] }));
    const google = createGoogleGenerativeAI({ baseURL: server.baseURL, apiKey: "test-key" });
    const { session } = providerSession({
      model: google("gemini-2.0-flash"),
      budget: { outputReserve: 20_000 },
      maxRetries: 0,
    });
    await session.send("Hi.");
    expect(server.requests[0]!.body.generationConfig?.maxOutputTokens).toBe(8192);
  });

  it("keeps a function call and its response together: model functionCall (with its thought signature), then user functionResponse", async () => {
    const { session, server } = await geminiSession([
      { functionCall: { name: "read_file", args: { path: "a.txt" } }, thoughtSignature: "c2lnbmF0dXJl" },
      { text: "It says hello." },
    ]);
    expect(await session.send("What is in a.txt?")).toMatchObject({ status: "completed", text: "It says hello." });
    expect(server.requests).toHaveLength(2);
    const second = server.requests[1]!.body;
    expect(contentKinds(second)).toEqual(["user:text", "model:functionCall", "user:functionResponse"]);
    expect(second.contents[1]!.parts[0]!.functionCall).toMatchObject({ name: "read_file", args: { path: "a.txt" } });
    // A thinking model's signature goes back with its call, from the stored row.
    expect(second.contents[1]!.parts[0]!.thoughtSignature).toBe("c2lnbmF0dXJl");
    expect(second.contents[2]!.parts[0]!.functionResponse).toMatchObject({ name: "read_file" });
    expect(JSON.stringify(second.contents[2])).toContain("contents of a.txt");
    expect(second.generationConfig?.maxOutputTokens).toBe(8192);
  });

  it("treats 'The input token count … exceeds the maximum number of tokens allowed' as context-exceeded: one emergency rollover and one retry", async () => {
    const { session, server } = await geminiSession(refusedAfterFirstAnswer({ error: TOO_LONG }));
    await expectRolloverOnRefusal(session);
    expect(server.requests).toHaveLength(3);
    expect(JSON.stringify(server.requests[2]!.body.contents)).not.toContain("First answer.");
  });

  it("retries a 503 UNAVAILABLE error chunk after output started; the cut text is not stored", async () => {
    const overloaded = {
      code: 503,
      message: "The model is overloaded. Please try again later.",
      status: "UNAVAILABLE",
    };
    const { session, server, store } = await geminiSession(
      [{ text: "Partial answ", midStreamError: overloaded }, { text: "The whole answer." }],
      { maxRetries: 1 },
    );
    const retries = recordEvents(session, "retry");
    const result = await session.send("Hi.");
    expect(result).toMatchObject({ status: "completed", text: "The whole answer." });
    expect(retries).toHaveLength(1);
    expect(retries[0]!.error.message).toContain("The model is overloaded");
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body.contents).toEqual(server.requests[0]!.body.contents);
    expect(await activeTurns(store)).toEqual([
      ["user", "Hi."],
      ["assistant", "The whole answer."],
    ]);
  });
});
