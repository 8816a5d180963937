/**
 * A `ToolLoopAgent` user adds ctxwin. `createContextAgent` takes `ToolLoopAgent`'s options plus a
 * store and a session id, and returns an AI SDK `Agent` again (`generate`, `stream`, `tools`), so
 * the code that calls the agent stays as it is. What changes: the conversation lives in the store
 * (each call brings only its new message), and near the model's context limit the session rolls
 * over to a fresh window, with `session_history` to read earlier ones back, instead of failing.
 * The README shows the move as a diff; examples/readme-diff.test.ts keeps it in step with this file.
 *
 * Run it offline, on ctxwin's scripted demo model exploring the current folder with a small context
 * limit (the demo model is in no catalog: its limit is given), so that it rolls over on the way:
 *   npx tsx examples/ai-sdk-agent.ts
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isStepCount, type LanguageModel } from "ai";
import { createContextAgent, openStore } from "ctxwin";
import { workspaceTools } from "ctxwin";
import { createDemoModel } from "ctxwin/demo";

/** Read-only tools over the current folder: `read_file`, `list_files`, `search_text`. */
const tools = workspaceTools({ root: "." });

/**
 * The agent of one chat. `model` is any AI SDK `LanguageModel` (`openai("gpt-4.1")`, …);
 * `contextLimit` is needed only for a model that ctxwin's catalog does not know.
 *
 * @example const { text } = await createProjectAgent(model, "chat-1").generate({ prompt: "What does src/index.ts export?" });
 */
export function createProjectAgent(model: LanguageModel, chatId: string, contextLimit?: number) {
  const agent = createContextAgent({ store: openStore(), sessionId: chatId, budget: { contextLimit },
    model,
    instructions: "You are a careful coding agent. Read the files before you answer.",
    tools,
    stopWhen: isStepCount(20),
  });
  return agent;
}

/** The offline run's context limit: small, so that reading a few files fills a window. */
export const EXAMPLE_CONTEXT_LIMIT = 12_000;

/**
 * The offline run: the demo model explores the current folder, reading up to `files` files, and
 * rolls over to a fresh window when one fills.
 *
 * @example const { text, windows } = await exploreOffline({ chatId: "example", write: () => {} });
 */
export async function exploreOffline({ chatId, files = 12, write }: { chatId: string; files?: number; write: (text: string) => void }) {
  const agent = createProjectAgent(createDemoModel(), chatId, EXAMPLE_CONTEXT_LIMIT);
  const prompt = `Explore the folder "${path.basename(process.cwd())}": list its files, then read up to ${files} of them one by one, most informative first.`;
  const result = await agent.stream({ prompt });
  let text = "";
  for await (const delta of result.textStream) {
    text += delta;
    write(delta);
  }
  const { rollovers } = await result.ctxwin;
  return { text, steps: (await result.steps).length, windows: rollovers.length + 1 };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { steps, windows } = await exploreOffline({ chatId: `example-${Date.now()}`, write: (text) => process.stdout.write(text) });
  console.log(`\n\n${steps} steps in ${windows} context windows, stored in .ctxwin/ctxwin.db.`);
}
