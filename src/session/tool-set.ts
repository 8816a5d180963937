/**
 * The tools a session offers: the caller's tools plus the built-in `session_history` and `memory`
 * tools, filtered by the tool policy. An allowlist governs the built-ins too: a session whose
 * allowlist does not grant `session_history` gets none (ADR 0008).
 */
import type { Tool, ToolSet } from "ai";
import { SESSION_HISTORY_TOOL_NAME } from "../core/row-text.js";
import type { ToolPolicy } from "./session-types.js";

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
}: {
  tools?: ToolSet;
  toolPolicy?: ToolPolicy;
  historyTool?: Tool;
  memoryTool?: Tool;
}): SessionToolSet {
  const candidates: ToolSet = { ...tools };
  if (historyTool !== undefined) candidates[SESSION_HISTORY_TOOL_NAME] = historyTool;
  if (memoryTool !== undefined) candidates[MEMORY_TOOL_NAME] = memoryTool;
  const allow = toolPolicy?.allow === undefined ? undefined : new Set(toolPolicy.allow);
  const granted: ToolSet = {};
  for (const [name, definition] of Object.entries(candidates)) {
    if (allow === undefined || allow.has(name)) granted[name] = definition;
  }
  return { tools: granted, historyToolAvailable: SESSION_HISTORY_TOOL_NAME in granted };
}
