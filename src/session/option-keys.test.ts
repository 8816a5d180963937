import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../core/errors.js";
import { thrownBy } from "../core/test-support/thrown-error.js";
import { createContextAgent } from "./context-agent/create-context-agent.js";
import { createAgentSession } from "./create-agent-session.js";
import { scriptedModel } from "./test-support/scripted-model.js";
import { deterministic, memoryStore } from "./test-support/session-fixture.js";

describe("option keys of createAgentSession and createContextAgent", () => {
  const base = () => ({
    store: memoryStore(),
    sessionId: "main",
    model: scriptedModel({ script: [{ text: "ok" }] }).model,
    ...deterministic(),
  });

  it("refuses contextLimit at the top level with one line naming budget.contextLimit", () => {
    const error = thrownBy(InvalidArgumentError, () =>
      createAgentSession({ ...base(), contextLimit: 100_000 } as never),
    );
    expect(error.message).toBe('createAgentSession has no option "contextLimit": it lives at budget.contextLimit.');
    const agentError = thrownBy(InvalidArgumentError, () =>
      createContextAgent({ ...base(), contextLimit: 100_000 } as never),
    );
    expect(agentError.message).toBe(
      'createContextAgent has no option "contextLimit": it lives at budget.contextLimit.',
    );
  });

  it("refuses a key that lives nowhere with the list of options, on one line", () => {
    const error = thrownBy(InvalidArgumentError, () =>
      createAgentSession({ ...base(), contextWindow: 8_000 } as never),
    );
    expect(error.message).toMatch(
      /^createAgentSession has no option "contextWindow"; its options are store, sessionId, model, .*budget/,
    );
    expect(error.message).not.toContain("\n");
    expect(
      thrownBy(InvalidArgumentError, () => createContextAgent({ ...base(), whenBusy: "wait", stray: 1 } as never))
        .message,
    ).toMatch(/"stray".*whenBusy/);
  });

  it("takes every option it documents, and the context agent's own", () => {
    expect(() =>
      createAgentSession({ ...base(), budget: { contextLimit: 100_000 }, continuity: {}, maxSteps: 3 }),
    ).not.toThrow();
    expect(() =>
      createContextAgent({
        ...base(),
        id: "a",
        instructions: "Be brief.",
        whenBusy: "refuse",
        checkClientHistory: false,
      }),
    ).not.toThrow();
  });

  it("says once that no rollover decision is made for a model of unknown limit", async () => {
    const warnings: string[] = [];
    const session = createAgentSession({ ...base(), logWarning: (message) => warnings.push(message) });
    await session.send("hi");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('No context limit is known for "mock:scripted"');
    expect(warnings[0]?.match(/no rollover decision/gi)).toHaveLength(1);
  });
});
