/**
 * What the server needs to chat: a label for people, the model's catalog key, and a factory of
 * agents (`createContextAgent`: an AI SDK `Agent` whose `session` is the same engine's session
 * face). `workspaceChat` builds them with `createWorkspaceContextAgent`, the agent of `ctxwin chat`.
 */
import type { LanguageModel } from "ai";
import { createWorkspaceContextAgent } from "../agent/workspace-agent.js";
import type { ContextAgent } from "../session/context-agent/create-context-agent.js";
import type { SessionBudgetOptions } from "../session/session-types.js";
import { modelKey as modelKeyOf } from "../session/budget-policy.js";
import type { CtxwinConfig } from "../store/config-file.js";
import type { HistoryStore } from "../store/port.js";
import { defaultMemoryRoot } from "../tools/memory/layout.js";
import type { WorkspaceToolLimits } from "../tools/workspace/limits.js";

export interface AgentRequest {
  store: HistoryStore;
  sessionId: string;
  /** The project directory (where `.ctxwin/` lives). */
  directory: string;
  /** `.ctxwin/config.json` as it is now: strategy, budget and model limits. */
  config: CtxwinConfig;
  /** Context limit override for the model, when one is set. */
  contextLimit: number | undefined;
  /** Characters of text one new message may hold; more is refused (HTTP 400), nothing written. */
  maxInputChars: number;
}

export interface ServerChat {
  /** Shown by `/api/info` (e.g. `openai:gpt-4.1-mini`). */
  label: string;
  /** The built-in scripted demo model. */
  demo: boolean;
  /** Catalog key of the model (`provider:model`): where a context limit override is saved. */
  modelKey: string;
  /** `--context-limit` given at start. */
  contextLimit?: number;
  createAgent(request: AgentRequest): ContextAgent;
}

/**
 * @example
 * const chat = workspaceChat({ model: createDemoModel(), label: "demo", demo: true, workspaceRoot: "." });
 * await startServer({ directory: ".", chat });
 */
export function workspaceChat({
  model,
  label,
  demo = false,
  workspaceRoot,
  memoryRoot,
  allowWrite = false,
  contextLimit,
  logWarning,
  tuning,
  maxRetries,
  providerStore = false,
  cache,
}: {
  model: LanguageModel;
  label: string;
  demo?: boolean;
  workspaceRoot: string;
  /** Default: `<dir>/.ctxwin/memory`. */
  memoryRoot?: string;
  allowWrite?: boolean;
  contextLimit?: number;
  logWarning?: (message: string) => void;
  /** Budget and tool settings for a given limit (the demo model's, see `demoTuning`). */
  tuning?: (options: { contextLimit: number }) => { budget?: SessionBudgetOptions; toolLimits?: WorkspaceToolLimits };
  /** Retries of a failed model call (default: the AI SDK's 2). */
  maxRetries?: number;
  /** Let the provider keep server-side state (OpenAI Responses `store`); default: self-contained requests. */
  providerStore?: boolean;
  /** Provider prompt-cache hints (docs/adr/0055): default on; `false` sends none; `ttl: "1h"` for Anthropic's hour. */
  cache?: { ttl?: "1h" } | false;
}): ServerChat {
  return {
    label,
    demo,
    modelKey: modelKeyOf(model),
    ...(contextLimit === undefined ? {} : { contextLimit }),
    createAgent: ({ store, sessionId, directory, config, contextLimit: limit, maxInputChars }) =>
      createWorkspaceContextAgent({
        store,
        sessionId,
        model,
        workspaceRoot,
        memoryRoot: memoryRoot ?? defaultMemoryRoot({ directory }),
        allowWrite,
        config,
        ...(limit === undefined ? {} : { contextLimit: limit }),
        ...(logWarning === undefined ? {} : { logWarning }),
        ...(tuning === undefined || limit === undefined ? {} : tuning({ contextLimit: limit })),
        sessionOptions: {
          ...(maxRetries === undefined ? {} : { maxRetries }),
          ...(providerStore ? { providerStore } : {}),
          ...(cache === undefined ? {} : { cache }),
        },
        maxInputChars,
      }),
  };
}
