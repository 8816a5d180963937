/**
 * The tools a session offers: the caller's tools plus the built-in `session_history` and `memory`
 * tools, filtered by the tool policy. An allowlist governs the built-ins too: a session whose
 * allowlist does not grant `session_history` gets none (ADR 0008). The opt-in `new_context` tool
 * is offered only beside `session_history`: a fresh window without it would lose context (ADR 0025).
 * A tool that needs approval (`needsApproval`) is refused: a call waiting for approval would be
 * stored without its result, and no call of either face can answer the approval.
 */
import type { Tool, ToolSet } from "ai";
import { InvalidArgumentError } from "../core/errors.js";
import { SESSION_HISTORY_TOOL_NAME } from "../core/row-text.js";
import { NEW_CONTEXT_TOOL_NAME } from "../core/rollover/new-context.js";
import type { ToolPolicy } from "./session-types.js";
import { TASK_TOOL_NAME } from "./subagents/subagent-types.js";

export const MEMORY_TOOL_NAME = "memory";

export interface SessionToolSet {
  tools: ToolSet;
  /** Whether `session_history` is offered: without it a rollover would make context unrecoverable. */
  historyToolAvailable: boolean;
}

/**
 * @example
 * buildToolSet({ tools: { read }, toolPolicy: { allow: ["read"] }, historyTool }) // no session_history
 */
export function buildToolSet({
  tools = {},
  toolPolicy,
  historyTool,
  memoryTool,
  newContextTool,
  taskTool,
}: {
  tools?: ToolSet;
  toolPolicy?: ToolPolicy;
  historyTool?: Tool;
  memoryTool?: Tool;
  /** The `new_context` tool, when the session opted in. */
  newContextTool?: Tool;
  /** The `task` tool, when the session has sub-agents (ADR 0060). */
  taskTool?: Tool;
}): SessionToolSet {
  const candidates: ToolSet = { ...tools };
  if (historyTool !== undefined) candidates[SESSION_HISTORY_TOOL_NAME] = historyTool;
  if (memoryTool !== undefined) candidates[MEMORY_TOOL_NAME] = memoryTool;
  if (newContextTool !== undefined) candidates[NEW_CONTEXT_TOOL_NAME] = newContextTool;
  if (taskTool !== undefined) candidates[TASK_TOOL_NAME] = taskTool;
  const allow = toolPolicy?.allow === undefined ? undefined : new Set(toolPolicy.allow);
  const granted: ToolSet = {};
  for (const [name, definition] of Object.entries(candidates)) {
    if (allow === undefined || allow.has(name)) granted[name] = definition;
  }
  for (const [name, definition] of Object.entries(granted)) {
    const needsApproval = (definition as { needsApproval?: unknown }).needsApproval;
    if (needsApproval !== undefined && needsApproval !== false) {
      throw new InvalidArgumentError(
        `Tool '${name}' needs approval (needsApproval): ` +
          "tool approvals are not supported by ctxwin sessions, " +
          "since a call waiting for approval would be stored without its result. " +
          "Remove needsApproval and confirm inside the tool's execute, or leave the tool out.",
      );
    }
  }
  const historyToolAvailable = SESSION_HISTORY_TOOL_NAME in granted;
  if (!historyToolAvailable && newContextTool !== undefined) delete granted[NEW_CONTEXT_TOOL_NAME];
  return { tools: granted, historyToolAvailable };
}
