/**
 * A `ToolLoopAgent` user adds ctxwin. `createContextAgent` takes `ToolLoopAgent`'s options plus a
 * store and a session id, and returns an AI SDK `Agent` again (`generate`, `stream`, `tools`), so
 * the code that calls the agent stays as it is. What changes: the conversation lives in the store
 * (each call brings only its new message), and near the model's context limit the session rolls
 * over to a fresh window, with `session_history` to read earlier ones back, instead of failing.
 * The README shows the move as a diff; examples/readme-diff.test.ts keeps it in step with this file.
 *
 * Run it offline, on ctxwin's scripted demo model exploring the current folder:
 *   npx tsx examples/ai-sdk-agent.ts
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isStepCount, type LanguageModel } from "ai";
import { createContextAgent, openStore } from "ctxwin";
import { createDemoModel, workspaceTools } from "ctxwin";

/** Read-only tools over the current folder: `read_file`, `list_files`, `search_text`. */
const tools = workspaceTools({ root: "." });

/**
 * The agent of one chat. `model` is any AI SDK `LanguageModel` (`openai("gpt-4.1")`, …).
 *
 * @example const { text } = await createProjectAgent(model, "chat-1").generate({ prompt: "What does src/index.ts export?" });
 */
export function createProjectAgent(model: LanguageModel, chatId: string) {
  const agent = createContextAgent({ store: openStore(), sessionId: chatId,
    model,
    instructions: "You are a careful coding agent. Read the files before you answer.",
    tools,
    stopWhen: isStepCount(20),
  });
  return agent;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const agent = createProjectAgent(createDemoModel(), `example-${Date.now()}`);
  const prompt = `Explore the folder "${path.basename(process.cwd())}": list its files, then read up to 3 of them one by one, most informative first.`;
  const result = await agent.stream({ prompt });
  for await (const text of result.textStream) process.stdout.write(text);
  console.log(`\n\n${(await result.steps).length} steps, stored in .ctxwin/ctxwin.db.`);
}
