import { describe, expect, it } from "vitest";
import { readStepMetadata } from "../core/rollover/step-usage.js";
import { scriptedModel } from "./test-support/scripted-model.js";
import { memoryStore } from "./test-support/session-fixture.js";
import { budgetSession, systemOfTokens } from "./test-support/rollover-setup.js";

describe("calibration against reported input tokens", () => {
  it("scales the session's own estimates by what the provider reports, and a new session object learns it again from stored rows", async () => {
    const store = memoryStore();
    const answer = "y".repeat(2_000); // 500 tokens by our count
    // A provider that counts 1.5× what we estimate (the request is ~4,000 system + ~900 tools + the rows).
    const { model } = scriptedModel({ script: (call) => ({ text: answer, inputTokens: Math.ceil(1.5 * (call.text.length / 4 + 900)) }) });
    const first = budgetSession({ store, model, system: systemOfTokens(4_000) });
    await first.send("question");

    const { rows } = await store.activeWindow("s");
    const step = readStepMetadata(rows.at(-1)!);
    expect(step?.estimatedInputTokens).toBeGreaterThan(4_000);
    const reported = step!.usage.inputTokens!;
    const usage = await first.usage();
    // The 500-token answer is not in the reported figure; our estimate of it is scaled by ~1.5.
    expect(usage.contextTokens - reported).toBeGreaterThan(1.4 * 500);

    const restarted = budgetSession({ store, model, system: systemOfTokens(4_000) });
    expect((await restarted.usage()).contextTokens).toBe(usage.contextTokens);
  });
});
