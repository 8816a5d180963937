/**
 * Issue 46: a file or image a caller gives `createContextAgent` travels as its data. A URL
 * (`file:`, `https:`, …) or a media type the providers do not take is refused with
 * `AgentInputError` before anything is stored, and no turn of the engine ever fetches a URL.
 */
import type { ModelMessage } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidArgumentError } from "../../core/errors.js";
import { createAgentSession } from "../create-agent-session.js";
import { scriptedModel } from "../test-support/scripted-model.js";
import { deterministic, memoryStore } from "../test-support/session-fixture.js";
import { readAllRows } from "../test-support/session-invariants.js";
import { AgentInputError } from "./agent-input.js";
import { createContextAgent } from "./create-context-agent.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const budget = { contextLimit: 50_000 };

function agentWith() {
  const store = memoryStore();
  const scripted = scriptedModel({ script: () => ({ text: "ok" }) });
  const agent = createContextAgent({ store, sessionId: "chat", model: scripted.model, budget, ...deterministic() });
  return { store, agent, calls: scripted.calls };
}

const withFile = (part: Record<string, unknown>): ModelMessage[] => [
  { role: "user", content: [{ type: "text", text: "Look at this." }, part] } as unknown as ModelMessage,
];

afterEach(() => vi.restoreAllMocks());

describe("createContextAgent: file parts", () => {
  it.each([
    [
      "a file: URL",
      { type: "file", data: new URL("file:///etc/passwd"), mediaType: "text/plain" },
      /is a URL, and URLs are never fetched/,
    ],
    ["a file: URL as text", { type: "file", data: "file:///etc/passwd", mediaType: "text/plain" }, /is a URL/],
    ["an https: image", { type: "image", image: "https://example.invalid/cat.png" }, /is a URL/],
    [
      "a media type not allowed",
      { type: "file", data: "PGI+", mediaType: "text/html" },
      /"text\/html" is not accepted/,
    ],
    [
      "a data URL that is not base64",
      { type: "file", data: "data:text/plain;base64,file:///etc/passwd", mediaType: "text/plain" },
      /not valid base64/,
    ],
  ])("refuses %s in stream and generate with AgentInputError, nothing stored", async (_name, part, message) => {
    const { store, agent, calls } = agentWith();
    await expect(agent.stream({ messages: withFile(part) })).rejects.toSatisfy(
      (error) => AgentInputError.isInstance(error) && message.test((error as Error).message),
    );
    await expect(agent.generate({ messages: withFile(part) })).rejects.toSatisfy(AgentInputError.isInstance);
    expect(await readAllRows(store, "chat")).toEqual([]);
    expect(calls).toHaveLength(0);
  });

  it("takes an image as bytes, base64 or a data URL, and the model receives it", async () => {
    const { store, agent, calls } = agentWith();
    const bytes = Buffer.from(PNG, "base64");
    for (const image of [bytes, PNG, `data:image/png;base64,${PNG}`]) {
      const result = await agent.generate({ messages: withFile({ type: "image", image, mediaType: "image/png" }) });
      expect(result.text).toBe("ok");
    }
    expect(calls.at(-1)?.text).toContain("[file image/png]");
    const files = (await readAllRows(store, "chat")).flatMap((row) => row.parts).filter((part) => part.type === "file");
    expect(files.map((part) => (part as { url: string }).url)).toEqual(Array(3).fill(`data:image/png;base64,${PNG}`));
  });
});

describe("session.send: file parts", () => {
  it("refuses a file URL in files or parts with InvalidArgumentError before anything is stored", async () => {
    const store = memoryStore();
    const scripted = scriptedModel({ script: () => ({ text: "ok" }) });
    const session = createAgentSession({ store, sessionId: "s", model: scripted.model, budget, ...deterministic() });
    await expect(
      session.send({ text: "See", files: [{ mediaType: "text/plain", url: "file:///etc/passwd" }] }),
    ).rejects.toSatisfy(
      (error) => InvalidArgumentError.isInstance(error) && /URLs are never fetched/.test((error as Error).message),
    );
    const parts = [{ type: "file" as const, mediaType: "image/png", url: "https://127.0.0.1:9/cat.png" }];
    await expect(session.send({ parts })).rejects.toSatisfy(InvalidArgumentError.isInstance);
    expect(await readAllRows(store, "s")).toEqual([]);
    expect(
      (await session.send({ text: "See", files: [{ mediaType: "image/png", url: `data:image/png;base64,${PNG}` }] }))
        .status,
    ).toBe("completed");
  });
});

describe("the engine never fetches a URL in a message", () => {
  it("refuses to download a stored https: URL for a model that does not take URLs, and fetches nothing", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const store = memoryStore();
    // A row stored before file parts were checked (or written by other code) names a URL.
    await store.append("legacy", [
      {
        role: "user",
        parts: [
          { type: "text", text: "See" },
          { type: "file", mediaType: "image/png", url: "https://127.0.0.1:9/cat.png" },
        ],
      },
    ]);
    await store.append("legacy", [{ role: "assistant", parts: [{ type: "text", text: "Seen." }] }]);
    const scripted = scriptedModel({ script: () => ({ text: "ok" }) });
    const session = createAgentSession({
      store,
      sessionId: "legacy",
      model: scripted.model,
      budget,
      maxRetries: 0,
      ...deterministic(),
    });

    const result = await session.send("Again?");

    expect(fetchSpy).not.toHaveBeenCalled();
    expect(result.status).toBe("failed");
    expect(result.error?.message).toMatch(/never fetches a URL named in a message/);
  });
});
