/**
 * The set-up of the tests that drive a session through a real provider package against a local
 * fake of its API: fakes closed after each test, a session over a fresh memory store with a
 * deterministic clock and ids whose retries wait no time, its warnings and usage events kept.
 */
import { tool } from "ai";
import { afterEach } from "vitest";
import { z } from "zod";
import type { HistoryStore } from "../../store/port.js";
import { createAgentSession } from "../create-agent-session.js";
import type { SessionEventMap } from "../session-events.js";
import type { AgentSessionOptions } from "../session-types.js";
import { deterministic, memoryStore, rowText } from "./session-fixture.js";

interface Closable {
  close(): Promise<void>;
}

/**
 * Registers an `afterEach` that closes every server given to the function it returns.
 *
 * @example
 * const closedAfterTest = closeAfterEach();
 * const server = closedAfterTest(await startAnthropicMessagesServer({ script }));
 */
export function closeAfterEach(): <Server extends Closable>(server: Server) => Server {
  const open: Closable[] = [];
  afterEach(async () => {
    while (open.length > 0) await open.pop()!.close();
  });
  return (server) => {
    open.push(server);
    return server;
  };
}

/**
 * A session (`sessionId` "s" unless given) over a fresh memory store.
 *
 * @example
 * const { session, warnings } = providerSession({ model: provider("gpt-4.1"), maxRetries: 0 });
 */
export function providerSession(options: Omit<AgentSessionOptions, "store" | "sessionId"> & { sessionId?: string }) {
  const store = memoryStore();
  const warnings: string[] = [];
  const session = createAgentSession({
    store,
    sessionId: "s",
    retryDelay: () => 0,
    logWarning: (message) => warnings.push(message),
    ...deterministic(),
    ...options,
  });
  const usage: Array<SessionEventMap["usage"]> = [];
  session.on("usage", (event) => usage.push(event));
  return { session, store, warnings, usage };
}

/** A `read_file` tool that answers `contents of <path>` for any path. */
export const readFileTool = tool({
  description: "Reads a file",
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => `contents of ${path}`,
});

/** The role and text of each row in the active window of session "s", oldest first. */
export async function activeTurns(store: HistoryStore): Promise<Array<[string, string]>> {
  return (await store.activeWindow("s")).rows.map((row) => [row.role, rowText(row)]);
}
