/**
 * A ready-made agent over a folder: an `AgentSession` with the workspace tools (read-only unless
 * `allowWrite`), the memory tool with the pinned notes file, `session_history`, and a system prompt
 * that tells the model how to use them. `ctxwin demo`, `ctxwin chat` and `ctxwin serve` all build
 * their agent here so that they behave alike.
 */
import path from "node:path";
import type { LanguageModel } from "ai";
import { createAgentSession, type AgentSession } from "../session/create-agent-session.js";
import { createContextAgent, type ContextAgent } from "../session/context-agent/create-context-agent.js";
import type { AgentSessionOptions, SessionBudgetOptions } from "../session/session-types.js";
import type { HistoryStore } from "../store/port.js";
import type { CtxwinConfig } from "../store/config-file.js";
import { workspaceTools, type WorkspaceToolLimits } from "../tools/workspace/workspace-tools.js";

/** The system prompt of a workspace agent. */
export const WORKSPACE_AGENT_SYSTEM_PROMPT = [
  "You are a careful software agent working in the user's project folder.",
  "Use read_file, list_files and search_text to look at the files before you answer; quote paths exactly.",
  "Your context window is limited. When you are warned that it is filling up, write what you must not forget",
  "(goals, decisions, exact identifiers, what failed) to your notes file with the memory tool: it is shown to you in every window.",
  "After a rollover, earlier messages are no longer in your context: find them with session_history (search, then read_item) instead of guessing.",
].join(" ");

export interface WorkspaceAgentOptions {
  store: HistoryStore;
  sessionId: string;
  model: LanguageModel;
  /** Folder the workspace tools see. */
  workspaceRoot: string;
  /** Folder of the memory tree (default: `.ctxwin/memory` beside the store, see docs/memory.md). */
  memoryRoot: string;
  /** Adds `write_file` and `edit_file` (inside the workspace only). */
  allowWrite?: boolean;
  /** `list_files` and `search_text` skip what `.gitignore` ignores (default true, see docs/workspace-tools.md). */
  respectGitignore?: boolean;
  /** Context limit of the model when the catalog does not know it (or to use less of it). */
  contextLimit?: number;
  /** Budget settings; they win over the configuration file's. */
  budget?: SessionBudgetOptions;
  /** `.ctxwin/config.json` as read by `readConfigFile` (strategy, budget, model limits). */
  config?: CtxwinConfig;
  system?: string;
  toolLimits?: WorkspaceToolLimits;
  maxSteps?: number;
  maxTurnsPerSend?: number;
  logWarning?: (message: string) => void;
  /** Other session options (clock, ids, fallback models, retries, provider storage, continuity) passed through unchanged. */
  sessionOptions?: Pick<
    AgentSessionOptions,
    | "now"
    | "generateId"
    | "fallbackModels"
    | "historyTool"
    | "maxRetries"
    | "providerStore"
    | "continuity"
    | "subagents"
    | "subagentSettings"
  >;
}

/**
 * @example
 * const store = openStore({ directory: process.cwd() });
 * const agent = createWorkspaceAgent({ store, sessionId: "chat-1", model: openai("gpt-4.1-mini"), workspaceRoot: ".", memoryRoot: ".ctxwin/memory" });
 * const result = await agent.send("Where is the retry policy configured?");
 */
export function createWorkspaceAgent(options: WorkspaceAgentOptions): AgentSession {
  return createAgentSession(workspaceSessionOptions(options));
}

/**
 * The same agent as an AI SDK `Agent` (`createContextAgent`), for `createAgentUIStreamResponse`
 * and `pipeAgentUIStreamToResponse`, or to drive the demo as a `useChat` client would;
 * `maxInputChars` caps one new message.
 *
 * @example
 * const agent = createWorkspaceContextAgent({ store, sessionId: chatId, model, workspaceRoot: ".", memoryRoot: ".ctxwin/memory" });
 * return createAgentUIStreamResponse({ agent, uiMessages });
 */
export function createWorkspaceContextAgent({
  maxInputChars,
  ...options
}: WorkspaceAgentOptions & { maxInputChars?: number }): ContextAgent {
  return createContextAgent({
    ...workspaceSessionOptions(options),
    ...(maxInputChars === undefined ? {} : { maxInputChars }),
  });
}

/** The session options of a workspace agent: tools, memory, and the budget merged from the configuration. */
function workspaceSessionOptions({
  store,
  sessionId,
  model,
  workspaceRoot,
  memoryRoot,
  allowWrite = false,
  respectGitignore = true,
  contextLimit,
  budget = {},
  config = {},
  system = WORKSPACE_AGENT_SYSTEM_PROMPT,
  toolLimits,
  maxSteps,
  maxTurnsPerSend,
  logWarning,
  sessionOptions = {},
}: WorkspaceAgentOptions): AgentSessionOptions {
  const merged: SessionBudgetOptions = {
    ...(config.strategy === undefined ? {} : { strategy: config.strategy }),
    ...(config.budget ?? {}),
    ...(config.models === undefined ? {} : { models: config.models }),
    ...budget,
    ...(contextLimit === undefined ? {} : { contextLimit }),
  };
  return {
    store,
    sessionId,
    model,
    system,
    tools: workspaceTools({
      root: path.resolve(workspaceRoot),
      allowWrite,
      respectGitignore,
      ...(toolLimits === undefined ? {} : { limits: toolLimits }),
    }),
    memory: { root: path.resolve(memoryRoot) },
    budget: merged,
    ...(maxSteps === undefined ? {} : { maxSteps }),
    ...(maxTurnsPerSend === undefined ? {} : { maxTurnsPerSend }),
    ...(logWarning === undefined ? {} : { logWarning }),
    ...sessionOptions,
  };
}
