/**
 * A fixture session for the browser tests, written with the library into `<directory>/.ctxwin/ctxwin.db`
 * (where `ctxwin serve --dir <directory>` looks): several context windows opened by rollovers, tool
 * calls with long results, a budget warning, a row holding markup that must stay inert, input that
 * was too large to send (a `rejected-input` row), a compaction and a soft clear.
 */
import path from "node:path";
import { tool } from "ai";
import { z } from "zod";
import { COMPACTION_INSTRUCTION } from "../../src/session/compaction.js";
import { createAgentSession } from "../../src/session/create-agent-session.js";
import { textOfTokens } from "../../src/session/test-support/rollover-setup.js";
import { scriptedModel, type RecordedCall, type ScriptedStep } from "../../src/session/test-support/scripted-model.js";
import { deterministic } from "../../src/session/test-support/session-fixture.js";
import { DEFAULT_STORE_PATH, openStore } from "../../src/store/open-store.js";

export const FIXTURE_SESSION = "fixture-session";
export const FIXTURE_LIMIT = 20_000;
/** Markup stored as the text of a user message; the UI must show it as text and never run it. */
export const HOSTILE_TEXT = `Look at this: <script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> <b>not bold</b>`;
export const REJECTED_MARKER = "REJECTED-INPUT-MARKER";
export const SEARCH_WORD = "zanzibar";
export const COMPACTION_SUMMARY = "Summary so far: the agent read the project's files two at a time.";
/** A long plain session (more rows than one page of the transcript). */
export const LONG_SESSION = "long-session";
export const LONG_SESSION_ROWS = 1_200;

/** Reads two files after each user message, then answers. */
function script(call: RecordedCall): ScriptedStep {
  if (call.text.includes(COMPACTION_INSTRUCTION.slice(0, 40))) return { text: COMPACTION_SUMMARY };
  const lines = call.text.split("\n");
  const lastUser = lines.findLastIndex((line) => line.startsWith("user: "));
  const reads = lines.slice(lastUser + 1).filter((line) => line.startsWith("tool: result read_file")).length;
  if (reads < 2) return { toolCalls: [{ toolName: "read_file", input: { path: `src/part-${call.index}.ts` } }] };
  return { text: `I read ${reads} files. The word of the day is ${SEARCH_WORD}.` };
}

const readFile = tool({
  description: "Reads a file of the project",
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path: file }) => `// ${file}\n${textOfTokens(900, "const")}\n{"long":"${"x".repeat(400)}"}`,
});

/**
 * A session of `LONG_SESSION_ROWS` short messages, appended straight to the store (no model), for
 * paging: its transcript opens on the newest page and loads earlier pages on scrolling up.
 */
async function writeLongSession(store: ReturnType<typeof openStore>): Promise<void> {
  for (let start = 0; start < LONG_SESSION_ROWS; start += 200) {
    const rows = Array.from({ length: 200 }, (_, index) => {
      const number = start + index + 1;
      return {
        role: number % 2 === 1 ? ("user" as const) : ("assistant" as const),
        parts: [{ type: "text" as const, text: `Long session message ${number}.` }],
      };
    });
    await store.append(LONG_SESSION, rows);
  }
}

/**
 * @example
 * const summary = await writeFixtureSession({ directory: tmp });
 */
export async function writeFixtureSession({
  directory,
}: {
  directory: string;
}): Promise<{ windows: number; rows: number }> {
  const store = openStore({ path: path.join(directory, DEFAULT_STORE_PATH), ...deterministic("fixture") });
  const { model } = scriptedModel({ script });
  const session = createAgentSession({
    store,
    sessionId: FIXTURE_SESSION,
    model,
    tools: { read_file: readFile },
    budget: { contextLimit: FIXTURE_LIMIT, warningTurnTokens: 300 },
    logWarning: () => undefined,
    ...deterministic("fixture-session"),
  });
  try {
    await session.send("Fixture session: please read the project files.");
    await session.send(HOSTILE_TEXT);
    for (let turn = 0; turn < 6; turn += 1) await session.send(`Turn ${turn}: read two more files.`);
    await session.send(`${REJECTED_MARKER} ${textOfTokens(30_000, "huge")}`);
    await session.send("Before the compaction: read two files.");
    const compaction = await session.compact();
    if (compaction.status !== "completed")
      throw new Error(`the fixture compaction did not complete: ${JSON.stringify(compaction)}`);
    await session.send("After the compaction: read two more.");
    await session.clear({ soft: true });
    await session.send("After the soft clear: read again.");
    await writeLongSession(store);
    const summary = await store.session(FIXTURE_SESSION);
    return { windows: summary?.windowCount ?? 0, rows: await store.lastSeq(FIXTURE_SESSION) };
  } finally {
    await store.close();
  }
}
