/**
 * Builds sessions over real stores for tests: a memory store, or SQLite in a temp directory, with
 * deterministic clocks and ids, and a small `read` tool that returns a file's text.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { tool, type Tool } from "ai";
import { z } from "zod";
import { createMemoryStore } from "../../store/memory/memory-store.js";
import { createSqliteStore } from "../../store/sqlite/sqlite-store.js";
import type { HistoryStore } from "../../store/port.js";
import { createAgentSession, type AgentSession } from "../create-agent-session.js";
import type { SessionEventMap, SessionEventName } from "../session-events.js";
import type { AgentSessionOptions, SendResult } from "../session-types.js";
import { scriptedModel, type Script } from "./scripted-model.js";

/** A deterministic clock and id generator. */
export function deterministic(prefix = "id") {
  let clock = Date.parse("2026-01-01T00:00:00.000Z");
  let counter = 0;
  return {
    now: () => new Date((clock += 1000)),
    generateId: () => `${prefix}-${++counter}`,
  };
}

export function memoryStore(): HistoryStore {
  return createMemoryStore(deterministic("store"));
}

/** A SQLite store in a fresh temp directory, and a function that removes the directory. */
export function sqliteStore(): { store: HistoryStore; path: string; cleanup: () => Promise<void> } {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-session-"));
  const file = path.join(directory, "ctxwin.db");
  const store = createSqliteStore({ path: file, ...deterministic("store") });
  return {
    store,
    path: file,
    cleanup: async () => {
      await store.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * A session "s" over `store` with room to spare (a 100,000-token window), a deterministic clock and ids.
 *
 * @example const session = testSession({ store: memoryStore(), model });
 */
export function testSession(options: Omit<AgentSessionOptions, "sessionId"> & { sessionId?: string }) {
  return createAgentSession({ sessionId: "s", budget: { contextLimit: 100_000 }, ...deterministic(), ...options });
}

/**
 * A {@link testSession} (over a fresh memory store unless `store` is given) whose scripted model plays `script`;
 * `calls` records every request the model received.
 *
 * @example const { store, calls, session } = scriptedSession([{ text: "hello" }]);
 */
export function scriptedSession(
  script: Script,
  { store = memoryStore(), ...options }: Partial<Omit<AgentSessionOptions, "model">> = {},
) {
  const { model, calls } = scriptedModel({ script });
  const session = testSession({ store, model, ...options });
  return { store, calls, session };
}

/**
 * Every `name` event the session emits from now on, in order.
 *
 * @example const retries = recordEvents(session, "retry");
 */
export function recordEvents<Name extends SessionEventName>(
  session: AgentSession,
  name: Name,
): SessionEventMap[Name][] {
  const received: SessionEventMap[Name][] = [];
  session.on(name, (event) => received.push(event));
  return received;
}

/**
 * Sends `input` and aborts the send as its first step ends: that step is settled and stored, nothing after it runs.
 *
 * @example expect(await interruptAfterFirstStep(session, "read a")).toMatchObject({ status: "interrupted" });
 */
export async function interruptAfterFirstStep(session: AgentSession, input: string): Promise<SendResult> {
  const controller = new AbortController();
  const stop = session.on("step-end", () => controller.abort());
  try {
    return await session.send(input, { signal: controller.signal });
  } finally {
    stop();
  }
}

/**
 * A `read` tool over an in-memory file table; unknown files give an error result.
 *
 * @example readTool({ "a.txt": "alpha" })
 */
export function readTool(files: Record<string, string>): Tool {
  return tool({
    description: "Reads a file",
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path: name }) => files[name] ?? `no such file: ${name}`,
  });
}

/** Text of every part of a row, for assertions. */
export function rowText(row: { parts: readonly { type: string }[] }): string {
  return row.parts.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join("");
}
