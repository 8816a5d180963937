/**
 * Sub-agents (issue 30, ADR 0060): named agent definitions a session can delegate to with the
 * `task` tool. Each task runs as a child session of its own in the same store.
 */
import type { LanguageModel, ToolSet } from "ai";
import type { SessionBudgetOptions, ToolPolicy } from "../session-types.js";

export interface SubagentDefinition {
  /** The sub-agent's system prompt. */
  system: string;
  /** Its tools (the parent's are not inherited); `session_history` and `task` are added like for any session. */
  tools?: ToolSet;
  toolPolicy?: ToolPolicy;
  /** Default: the parent's primary model at the time of the call. */
  model?: LanguageModel;
  /** Default: the parent's budget settings. */
  budget?: SessionBudgetOptions;
  /**
   * Memory for the child (default `true` when the parent has memory): the parent's memory root,
   * with the child's own workspace scope and so its own notes file. `false`: none.
   */
  memory?: boolean | { readOnly?: boolean };
  /** One line for the `task` tool's description: when to use this agent. */
  description?: string;
}

export interface SubagentSettings {
  /** Tasks of one session that run at once (default 2); more wait for a free slot. */
  maxConcurrency?: number;
  /** How deep children may nest (default 3): a session at this depth gets no `task` tool answers. */
  maxDepth?: number;
  /** Longest answer a task returns to its parent, in characters (default 8,000). */
  maxAnswerChars?: number;
}

export const DEFAULT_SUBAGENT_SETTINGS: Required<SubagentSettings> = {
  maxConcurrency: 2,
  maxDepth: 3,
  maxAnswerChars: 8_000,
};

export const TASK_TOOL_NAME = "task";

export type TaskResult =
  | {
      status: "completed" | "blocked" | "failed" | "interrupted";
      agent: string;
      /** The child session: readable with `session_history` (`list_sessions`, `session_id`). */
      session_id: string;
      /** The child's final answer, cut at `maxAnswerChars`. */
      answer: string;
      answer_chars: number;
      truncated: boolean;
      reason?: string;
    }
  | { status: "refused"; code: "unknown_agent" | "invalid_input" | "depth_limit"; message: string };
