/**
 * The `task` tool of one session: the tool, a runner bound to the session, and the session's
 * concurrency limit, put together from the session's options (ADR 0060).
 */
import type { Tool } from "ai";
import { InvalidArgumentError } from "../../core/errors.js";
import { createConcurrencyLimit } from "./concurrency-limit.js";
import { runTask, type TaskRunnerOptions } from "./run-task.js";
import { DEFAULT_SUBAGENT_SETTINGS, type SubagentSettings } from "./subagent-types.js";
import { taskTool } from "./task-tool.js";

export type SubagentTaskToolOptions = Omit<TaskRunnerOptions, "settings" | "limit" | "claimedChildIds"> & {
  settings: SubagentSettings | undefined;
};

/** @example buildToolSet({ tools, taskTool: subagentTaskTool({ store, sessionId, subagents, ... }) }) */
export function subagentTaskTool({ settings, ...options }: SubagentTaskToolOptions): Tool {
  const checked = { ...DEFAULT_SUBAGENT_SETTINGS, ...settings };
  for (const [name, value] of Object.entries(checked)) {
    if (!Number.isInteger(value) || value < 1)
      throw new InvalidArgumentError(`subagentSettings.${name} must be a positive integer; got ${String(value)}.`);
  }
  for (const [name, definition] of Object.entries(options.subagents)) {
    if (definition === null || typeof definition !== "object" || typeof definition.system !== "string") {
      throw new InvalidArgumentError(
        `subagents.${name} needs { system } (a string), and may have tools, model, budget, memory.`,
      );
    }
  }
  const runner: TaskRunnerOptions = {
    ...options,
    settings: checked,
    limit: createConcurrencyLimit(checked.maxConcurrency),
    claimedChildIds: new Set(),
  };
  return taskTool({ subagents: options.subagents, run: (request) => runTask(runner, request) }) as Tool;
}
