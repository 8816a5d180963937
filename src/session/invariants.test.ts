/**
 * docs/design.md §10 over a whole mixed session, asserted on what the model received: at every request,
 * nothing from before the active window's boundary (2); after the run, the stored transcript keeps
 * invariants 1, 4, 5 and 7. Invariant 6 through the session: after a manual reset, session_history
 * returns nothing from before it to the model. Runs on the memory store and on a real PostgreSQL
 * server (a schema per test), so the engine keeps the invariants on a server backend too.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../store/open-store.js";
import type { HistoryStore } from "../store/port.js";
import { createTestDatabase, postgresUnavailable, type TestDatabase } from "../store/test-support/postgres-database.js";
import { scriptedModel, type RecordedCall, type ScriptedStep } from "./test-support/scripted-model.js";
import { memoryStore, readTool } from "./test-support/session-fixture.js";
import { readAllRows, sessionProblems } from "./test-support/session-invariants.js";
import { budgetSession } from "./test-support/rollover-setup.js";
import { renderRowText } from "../core/row-text.js";

const MARKER = /\[#\d+\]/g;

let database: TestDatabase | undefined;
let schemas = 0;
const opened: HistoryStore[] = [];
beforeAll(async () => {
  if (postgresUnavailable === "") database = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  await database?.drop();
});

const backends = [
  { name: "memory", open: () => memoryStore() },
  { name: "postgres", open: () => openStore({ url: database!.url, schema: `invariants_${(schemas += 1)}` }) },
];

describe.each(backends)("invariants over a mixed session on $name", ({ name, open }) => {
  const newStore = () => {
    const store = open();
    opened.push(store);
    return store;
  };
  const skip = name === "postgres" && postgresUnavailable !== "";

  it.skipIf(skip)(
    "no request carries a row from before the active window's boundary; the transcript keeps invariants 1, 4, 5, 7",
    async () => {
      const store = newStore();
      let fileCounter = 0;
      const files = new Proxy<Record<string, string>>({}, { get: () => `[#${++fileCounter}] ${"data ".repeat(900)}` });
      const script = (call: RecordedCall): ScriptedStep => {
        const lines = call.text.split("\n");
        const lastUser = lines.findLastIndex((line) => line.startsWith("user: "));
        const reads = lines.slice(lastUser + 1).filter((line) => line.startsWith("tool: result read")).length;
        // A plausible provider: it counts about what we estimate (the prompt at 4 characters per token, tools included).
        const inputTokens = Math.ceil(call.text.length / 4) + 900;
        if (reads < 2 && !lines[lastUser]?.includes("[Context budget]"))
          return { toolCalls: [{ toolName: "read", input: { path: "next" } }], inputTokens };
        return { text: `noted [#${100_000 + call.index}]`, inputTokens };
      };
      const leaks: string[] = [];
      const { model, calls } = scriptedModel({
        script,
        beforeAnswer: async (call) => {
          const window = await store.activeWindow("s");
          const before = (await readAllRows(store, "s")).filter((row) => row.seq < window.boundarySeq);
          const old = new Set(before.flatMap((row) => renderRowText(row).match(MARKER) ?? []));
          for (const marker of call.text.match(MARKER) ?? [])
            if (old.has(marker)) leaks.push(`request ${call.index} carries ${marker} from before ${window.windowId}`);
        },
      });
      const session = budgetSession({
        store,
        model,
        tools: { read: readTool(files) },
        settings: { warningTurnTokens: 1_000 },
      });

      let rollovers = 0;
      let warnings = 0;
      for (let index = 1; index <= 24; index += 1) {
        const result = await session.send(`[#${50_000 + index}] message ${index}: read two files`);
        expect(result.status).toBe("completed");
        rollovers += result.rollovers.length;
        warnings += result.warnings.length;
      }

      expect(rollovers).toBeGreaterThanOrEqual(2);
      expect(warnings).toBeGreaterThanOrEqual(1);
      expect(calls.length).toBeGreaterThan(48);
      expect(leaks).toEqual([]);
      expect(sessionProblems(await readAllRows(store, "s"), await store.lastSeq("s"))).toEqual([]);
    },
  );

  it.skipIf(skip)(
    "after a manual reset, session_history gives the model nothing from before it (invariant 6)",
    async () => {
      const store = newStore();
      const script = (call: RecordedCall): ScriptedStep => {
        const last = call.prompt.at(-1);
        if (last?.role === "user" && call.text.endsWith("what was the password?"))
          return {
            toolCalls: [
              { toolName: "session_history", input: { action: "search", query: "HUNTER2", mode: "literal" } },
            ],
          };
        if (last?.role === "tool") return { text: "I cannot find it." };
        return { text: "ok" };
      };
      const { model, calls } = scriptedModel({ script });
      const session = budgetSession({ store, model });
      await session.send("the password is HUNTER2");
      await session.clear({ soft: true });
      const result = await session.send("what was the password?");
      expect(result.text).toBe("I cannot find it.");
      expect(calls).toHaveLength(3);
      // The request after the reset carries neither the old exchange nor, through the tool, its text.
      expect(calls[1]!.text).not.toContain("the password is");
      const toolMessage = calls[2]!.prompt.at(-1);
      expect(toolMessage?.role).toBe("tool");
      const received = JSON.stringify(toolMessage);
      expect(received).toContain("search");
      expect(received).not.toContain("the password is");
    },
  );
});
