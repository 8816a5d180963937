/**
 * Public types of the agent session: options, send input and result, and the records of rollovers
 * and warnings a send reports.
 */
import type { LanguageModel, Tool, ToolSet } from "ai";
import type { Spend } from "../core/budget/step-spend.js";
import type { RowPart } from "../core/row.js";
import type { HistoryStore } from "../store/port.js";
import type { BudgetSettings, BudgetStrategy, SessionBudgetPolicy } from "./budget-policy.js";
import type { CacheTtl } from "./cache-breakpoints.js";
import type { SubagentDefinition, SubagentSettings } from "./subagents/subagent-types.js";
import type { LoopSettings } from "./loop-settings.js";
import type { CompactionInfo, RolloverInfo, WarningInfo } from "./ui-data-parts.js";

export type { BudgetStrategy } from "./budget-policy.js";
export type { CompactionInfo, RequestSpend, RolloverInfo, WarningInfo } from "./ui-data-parts.js";

export interface SessionBudgetOptions extends BudgetSettings {
  /** `rollover` (default): hard rollovers; `compact`: LLM summary boundary; `off`: only the hard ceiling blocks. */
  strategy?: BudgetStrategy;
  /** Share of the hard ceiling one tool output may take before the request shows a truncated view (default 0.5). */
  maxToolOutputShare?: number;
}

/** Which tools the agent may use. An allowlist also governs the built-in tools. */
export interface ToolPolicy {
  /** Tool names the agent may use; every other tool is withheld. */
  allow?: readonly string[];
}

/** Renders the `<hot_memories>` block for the next request ('' when there is nothing to show). */
export interface HotMemoriesProvider {
  render(): Promise<string>;
  /** Memory mode for the warning text. */
  readonly mode: "read-write" | "read-only" | "off";
}

/**
 * How a turn stopped by a rollover keeps its task (docs/adr/0023). Each feature can be switched
 * off, e.g. to measure it against today's behaviour.
 */
export interface ContinuityOptions {
  /**
   * The `continue` row after a rollover that stops a turn carries the turn's user input (verbatim,
   * bounded) and a ledger of its tool calls, each with its outcome: finished, failed or not run
   * (default true; docs/adr/0050).
   */
  carry?: boolean;
  /**
   * Before a rollover decided after a settled step (force band, not the hard ceiling), the agent
   * gets one step with only the memory tool to update its notes, once per window, when memory is
   * writable and the request fits (default true).
   */
  notesFlush?: boolean;
  /**
   * Offer the agent the `new_context` tool, to ask for a fresh window itself (docs/adr/0025;
   * default false). Only with strategy `rollover`, and only when the tool policy grants both
   * `new_context` and `session_history`.
   */
  newContextTool?: boolean;
}

export interface AgentSessionOptions {
  store: HistoryStore;
  sessionId: string;
  model: LanguageModel;
  /** Tried in order when a call to the model before them fails before anything streamed. */
  fallbackModels?: readonly LanguageModel[];
  system?: string;
  tools?: ToolSet;
  toolPolicy?: ToolPolicy;
  budget?: SessionBudgetOptions;
  /** Memory tool and hot memories (`{ root }`), or `false` (default) for none. */
  memory?: { root: string; readOnly?: boolean } | false;
  /**
   * Sub-agents the session may delegate to with the `task` tool (ADR 0060); each task runs as a
   * child session of this one. The tool is allowlisted like `session_history`.
   */
  subagents?: Readonly<Record<string, SubagentDefinition>>;
  subagentSettings?: SubagentSettings;
  /** How deep this session is among sub-agents (set by the `task` tool; 0 by default). */
  subagentDepth?: number;
  /** Continuity across a rollover in the middle of a turn (all on by default). */
  continuity?: ContinuityOptions;
  /** Most steps of one turn (default 20). */
  maxSteps?: number;
  /** Most turns (the input plus queued continuations) one `send` runs (default 25). */
  maxTurnsPerSend?: number;
  /**
   * Retries of a failed model call before it counts as failed (the AI SDK's `maxRetries`, default
   * 2, with backoff). 0 reports an unreachable server at once.
   */
  maxRetries?: number;
  /**
   * Milliseconds to wait before retry `n` (counting from 1) of a step that failed after its answer
   * began streaming (default 1 s, doubling, at most 30 s). Retries before the stream are the SDK's.
   */
  retryDelay?: (retry: number) => number;
  /**
   * Let the provider store requests and responses on its servers (the OpenAI Responses API's
   * `store`). Default `false`: every request is self-contained, earlier output is sent as content,
   * never as references to stored items (docs/adr/0027).
   */
  providerStore?: boolean;
  /**
   * Provider prompt-cache hints (docs/adr/0055): Anthropic `cache_control` breakpoints and an OpenAI
   * Responses `prompt_cache_key` per window; nothing for other providers. On by default; `false`
   * sends none. `ttl: "1h"` keeps Anthropic's cache an hour instead of 5 minutes (writes cost 2×
   * instead of 1.25× the input price). Hints change what a request costs, never what fits.
   */
  cache?: { ttl?: CacheTtl } | false;
  now?: () => Date;
  generateId?: () => string;
  /** Seams, for tests and for engines that are not wired by default. */
  budgetPolicy?: SessionBudgetPolicy;
  hotMemories?: HotMemoriesProvider;
  /** Builds the `session_history` tool for this session (default: `sessionHistoryTool`). */
  historyTool?: (options: { store: HistoryStore; sessionId: string }) => Tool;
  /** Where one-off warnings go (an unknown model limit); default `console.warn`. */
  logWarning?: (message: string) => void;
  /**
   * The AI SDK's own loop settings, applied around ctxwin's (loop-settings.ts): stop conditions
   * after ctxwin's; `prepareStep` may set a step's active tools, tool choice and provider options
   * (the messages, system prompt and model stay the window's); `onStepEnd` after each stored
   * step; `providerOptions` under the ones ctxwin sets; the usual call settings; `runtimeContext`
   * and `toolsContext` as AI SDK 7's `streamText` takes them.
   */
  stopWhen?: LoopSettings["stopWhen"];
  prepareStep?: LoopSettings["prepareStep"];
  onStepEnd?: LoopSettings["onStepEnd"];
  /** @deprecated AI SDK 7's name is `onStepEnd` (used when both are given). */
  onStepFinish?: LoopSettings["onStepEnd"];
  runtimeContext?: LoopSettings["runtimeContext"];
  toolsContext?: LoopSettings["toolsContext"];
  providerOptions?: LoopSettings["providerOptions"];
  callSettings?: LoopSettings["callSettings"];
  toolChoice?: LoopSettings["toolChoice"];
}

/** What `send` accepts: text, or text with file/image attachments, or raw UI parts. */
export type SendInput =
  | string
  | { text: string; files?: ReadonlyArray<{ mediaType: string; url: string; filename?: string }> }
  | { parts: RowPart[] };

export interface StepUsageSummary {
  /** Input tokens, cached reads and writes included once. */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens the provider read from its prompt cache (0 when it reported none). */
  cacheReadTokens: number;
  /** Input tokens the provider wrote to its prompt cache (0 when it reported none). */
  cacheWriteTokens: number;
}

/** Options of one `send`. */
export interface SendOptions {
  /**
   * Interrupts the send: the provider call is aborted, what already streamed of the current step
   * is stored as a partial step, and no further step, turn or continuation runs. The result has
   * status `interrupted`. Aborted before its input was stored (already aborted, or while waiting
   * behind another send), the send stores nothing.
   */
  signal?: AbortSignal;
}

export interface SendResult {
  /** `interrupted`: the send's `signal` aborted it (see `SendOptions.signal`). */
  status: "completed" | "blocked" | "failed" | "interrupted";
  /** Text of the last assistant answer of this send (interrupted: what streamed of it). */
  text: string;
  rollovers: RolloverInfo[];
  warnings: WarningInfo[];
  /** Compactions strategy `compact` made instead of rollovers. */
  compactions: CompactionInfo[];
  /** Sum over every step of this send. */
  usage: StepUsageSummary & { steps: number };
  /** Why a send was blocked, for people. */
  reason?: string;
  error?: Error;
}

export interface SessionUsage {
  windowId: string;
  contextTokens: number;
  contextLimit: number | undefined;
  /** Tokens at which the window rolls over (or, with strategy `compact`, is compacted) on the next send; none with strategy `off`. */
  threshold: number | undefined;
  /** What happens at the threshold. */
  strategy?: BudgetStrategy;
  hardCeiling: number | undefined;
  /** `contextTokens / contextLimit × 100`, when the limit is known. */
  percent: number | undefined;
  /** What the active window's requests cost so far (docs/budget.md, Cost), from the usage stored with each step. */
  window?: Spend;
}
