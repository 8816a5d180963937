/**
 * The tools of the notes-flush step (docs/adr/0024, 0055): every definition is sent as in the
 * window's other requests, so the flush request keeps the window's cached prefix (a changed tool
 * list makes Anthropic and OpenAI re-read the whole request); only the memory tool runs. A call to
 * any other tool ends with an error result that says why, and nothing else is executed.
 */
import type { Tool, ToolSet } from "ai";

/**
 * @example streamText({ tools: flushStepTools({ tools, runnable: ["memory"] }), stopWhen: stepCountIs(1), ... })
 */
export function flushStepTools({ tools, runnable }: { tools: ToolSet; runnable: readonly string[] }): ToolSet {
  const allowed = new Set(runnable);
  const result: ToolSet = {};
  for (const [name, definition] of Object.entries(tools)) {
    // A provider-executed tool runs on the provider's side: there is nothing here to hold back.
    result[name] =
      allowed.has(name) || definition.type === "provider"
        ? definition
        : ({ ...definition, execute: refuse(name, runnable) } as Tool);
  }
  return result;
}

function refuse(name: string, runnable: readonly string[]): () => Promise<never> {
  return async () => {
    throw new Error(
      `Only ${runnable.join(", ")} runs in this step: the context window rolls over right after it, ` +
        `so update your notes now. Call ${name} again after the rollover.`,
    );
  };
}
