/**
 * The long-session test of issue 6: an agent reads essays from $CTXWIN_TEST_DATA/haystack through a
 * tool under a 16k-token limit, rolls over at least five times, never sends a request over the hard
 * ceiling (counted independently of the session's own estimates), and at the end recovers a fact
 * planted in the first essay through session_history, from what it receives.
 */
import fs from "node:fs";
import path from "node:path";
import { tool } from "ai";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { countEncodedTokens } from "../core/budget/token-count.js";
import { createAgentSession } from "./create-agent-session.js";
import { scriptedModel, type RecordedCall, type ScriptedStep } from "./test-support/scripted-model.js";
import { deterministic, sqliteStore } from "./test-support/session-fixture.js";
import { testData } from "../../test/test-data.js";

// Without the essays the test skips with a line naming CTXWIN_TEST_DATA; under CI=true it fails.
const haystack = testData("haystack", "the long-session test") ?? "";
const available = haystack !== "";
const LIMIT = 16_000;
const CEILING = 12_000; // 16,000 − min(8,192, 4,000)
const PLANTED = "The secret launch code is ZEBRA-4471.";
const CODE = /ZEBRA-\d{4}/;

/** Tokens of a request as the provider would see it, counted with o200k without any of ctxwin's estimates. */
function independentTokens(options: LanguageModelV4CallOptions): number {
  let total = 0;
  for (const message of options.prompt) {
    if (message.role === "system") {
      total += countEncodedTokens(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text" || part.type === "reasoning") total += countEncodedTokens(part.text);
      else if (part.type === "tool-call") total += countEncodedTokens(`${part.toolName} ${JSON.stringify(part.input)}`);
      else if (part.type === "tool-result") {
        const output = part.output;
        total += countEncodedTokens(
          output.type === "text" || output.type === "error-text" ? output.value : JSON.stringify(output),
        );
      }
    }
  }
  for (const definition of options.tools ?? []) total += countEncodedTokens(JSON.stringify(definition));
  return total;
}

function essayNames(): string[] {
  return fs
    .readdirSync(haystack)
    .filter((name) => name.endsWith(".txt") && name !== "LICENSE.txt")
    .map((name) => ({ name: name.slice(0, -4), size: fs.statSync(path.join(haystack, name)).size }))
    .filter(({ size }) => size >= 3_000 && size <= 30_000)
    .map(({ name }) => name)
    .sort()
    .slice(0, 32);
}

describe.skipIf(!available)("long session over the haystack essays", () => {
  it("rolls over ≥ 5 times under 16k, keeps every request under the ceiling, and recovers the planted fact through session_history", async () => {
    const essays = essayNames();
    const first = essays[0]!;
    const readEssay = tool({
      description: "Reads one essay by name.",
      inputSchema: z.object({ name: z.string() }),
      execute: async ({ name }) => {
        const text = fs.readFileSync(path.join(haystack, `${name}.txt`), "utf8");
        if (name !== first) return text;
        const middle = text.indexOf("\n\n", Math.floor(text.length / 2));
        return `${text.slice(0, middle)}\n\n${PLANTED}${text.slice(middle)}`;
      },
    });

    // The scripted agent reads the essays in order, one per step, then searches its history.
    let next = 0;
    let searched = false;
    const modelRef: { doStreamCalls: LanguageModelV4CallOptions[] } = { doStreamCalls: [] };
    const script = (call: RecordedCall): ScriptedStep => {
      const inputTokens = independentTokens(modelRef.doStreamCalls[call.index]!);
      if (next < essays.length)
        return {
          toolCalls: [{ toolName: "read_essay", input: { name: essays[next++] } }],
          inputTokens,
          outputTokens: 20,
        };
      if (!searched) {
        searched = true;
        return {
          toolCalls: [
            { toolName: "session_history", input: { action: "search", query: "secret launch code", mode: "literal" } },
          ],
          inputTokens,
          outputTokens: 20,
        };
      }
      const lastMessage = call.prompt.at(-1);
      const received = lastMessage?.role === "tool" ? JSON.stringify(lastMessage.content) : "";
      const code = CODE.exec(received)?.[0];
      return {
        text: code === undefined ? "I could not find the code." : `The launch code is ${code}.`,
        inputTokens,
        outputTokens: 10,
      };
    };
    const { model, calls } = scriptedModel({ script, provider: "openai.chat", modelId: "gpt-4o" });
    modelRef.doStreamCalls = model.doStreamCalls;
    const opened = sqliteStore();
    try {
      const session = createAgentSession({
        store: opened.store,
        sessionId: "haystack",
        model,
        system: "You read essays and answer questions about them.",
        tools: { read_essay: readEssay },
        budget: { contextLimit: LIMIT },
        maxTurnsPerSend: 60,
        ...deterministic(),
      });

      const result = await session.send(
        `Read these essays in order: ${essays.join(", ")}. Then tell me the code planted in the first one.`,
      );

      expect(result.status).toBe("completed");
      expect(result.rollovers.length).toBeGreaterThanOrEqual(5);
      expect(result.text).toBe("The launch code is ZEBRA-4471.");

      // Invariant 3, counted independently: every request the provider received was under the ceiling.
      const sizes = model.doStreamCalls.map(independentTokens);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(CEILING);
      console.log(
        `long session: ${calls.length} requests, ${result.rollovers.length} rollovers, largest request ${Math.max(...sizes)} tokens (ceiling ${CEILING})`,
      );

      // The code reached the model only in the first window and, at the end, through session_history.
      const withCode = calls.filter((call) => CODE.test(call.text));
      const lastCall = calls.at(-1)!;
      expect(withCode.at(-1)).toBe(lastCall);
      expect(lastCall.prompt.at(-1)?.role).toBe("tool");
      const firstRollover = calls.findIndex((call) => call.text.includes("[Context window w:"));
      expect(withCode.filter((call) => call.index >= firstRollover && call !== lastCall)).toEqual([]);

      // Every window after the first was opened by a rollover with its lead-in; all essays were stored.
      const windows = await opened.store.windows("haystack", { limit: 50 });
      expect(windows.windows.filter((window) => window.kind === "rollover")).toHaveLength(result.rollovers.length);
    } finally {
      await opened.cleanup();
    }
  });
});
