/**
 * The `task` tool: `{ agent, prompt }` runs a named sub-agent as a child session and returns its
 * final answer, bounded, with the child's session id (ADR 0060). Bad input is a refusal the model
 * can act on, never an exception; its schema lets every value through to `execute` (ADR 0010).
 */
import { tool, type Tool } from "ai";
import { z } from "zod";
import type { SubagentDefinition, TaskResult } from "./subagent-types.js";

export interface TaskRequest {
  agent: string;
  prompt: string;
  toolCallId: string;
  abortSignal: AbortSignal | undefined;
}

function taskDescription(subagents: Readonly<Record<string, SubagentDefinition>>): string {
  const agents = Object.entries(subagents).map(
    ([name, definition]) => `- ${name}${definition.description === undefined ? "" : `: ${definition.description}`}`,
  );
  return [
    "Delegate a self-contained task to a sub-agent. " +
      "It works in a session of its own (its own context windows and notes) " +
      "and returns its final answer and its session id.",
    "Give it everything it needs in the prompt: it does not see this conversation. Several task calls in one step run in parallel.",
    "What it saw and said stays searchable with session_history (your searches cover your sub-agents' sessions).",
    "Agents:",
    ...agents,
  ].join("\n");
}

const inputSchema = z.preprocess(
  (value) => (typeof value === "object" && value !== null && !Array.isArray(value) ? value : {}),
  z.object({
    agent: z.unknown().optional().meta({ type: "string", description: "Name of the sub-agent." }),
    prompt: z.unknown().optional().meta({ type: "string", description: "The task, complete and self-contained." }),
  }),
) as unknown as z.ZodType<{ agent?: unknown; prompt?: unknown }, unknown>;

export const MAX_TASK_PROMPT_CHARS = 100_000;

/**
 * @example
 * const tools = { task: taskTool({ subagents: { reviewer }, run: (request) => runTask(request) }) };
 */
export function taskTool({
  subagents,
  run,
}: {
  subagents: Readonly<Record<string, SubagentDefinition>>;
  run: (request: TaskRequest) => Promise<TaskResult>;
}): Tool<{ agent?: unknown; prompt?: unknown }, TaskResult> {
  return tool({
    description: taskDescription(subagents),
    inputSchema,
    execute: async (input, { toolCallId, abortSignal }) => {
      const { agent, prompt } = input;
      if (typeof agent !== "string" || !Object.hasOwn(subagents, agent)) {
        const known = Object.keys(subagents).join(", ");
        return {
          status: "refused",
          code: "unknown_agent",
          message: `Unknown agent ${JSON.stringify(agent)}. Known agents: ${known}.`,
        };
      }
      if (typeof prompt !== "string" || prompt.trim() === "" || prompt.length > MAX_TASK_PROMPT_CHARS) {
        return {
          status: "refused",
          code: "invalid_input",
          message: `prompt must be a non-empty string of at most ${MAX_TASK_PROMPT_CHARS} characters.`,
        };
      }
      return run({ agent, prompt, toolCallId, abortSignal });
    },
  });
}
