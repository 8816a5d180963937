/**
 * Unknown option keys of `createAgentSession` and `createContextAgent` are refused (issue 46):
 * JavaScript callers get no type error, and `createAgentSession({ contextLimit })` used to be
 * ignored in silence. The refusal is one line that names where the option lives.
 */
import { InvalidArgumentError } from "../core/errors.js";
import type { AgentSessionOptions } from "./session-types.js";

const SESSION_OPTION_KEYS = [
  "store",
  "sessionId",
  "model",
  "fallbackModels",
  "system",
  "tools",
  "toolPolicy",
  "budget",
  "memory",
  "subagents",
  "subagentSettings",
  "subagentDepth",
  "continuity",
  "maxSteps",
  "maxTurnsPerSend",
  "maxRetries",
  "retryDelay",
  "providerStore",
  "cache",
  "now",
  "generateId",
  "budgetPolicy",
  "hotMemories",
  "historyTool",
  "logWarning",
  "stopWhen",
  "prepareStep",
  "onStepEnd",
  "onStepFinish",
  "runtimeContext",
  "toolsContext",
  "providerOptions",
  "callSettings",
  "toolChoice",
] as const satisfies ReadonlyArray<keyof AgentSessionOptions>;

// Every option of the type is in the list (a new option that is not fails to compile here).
const everyKeyListed: Exclude<keyof AgentSessionOptions, (typeof SESSION_OPTION_KEYS)[number]> extends never
  ? true
  : never = true;
void everyKeyListed;

/** Options a caller is likely to put at the top level, and where they live. */
const NESTED_OPTIONS: Readonly<Record<string, string>> = {
  contextLimit: "budget.contextLimit",
  threshold: "budget.threshold",
  outputReserve: "budget.outputReserve",
  models: "budget.models",
  warningTurnTokens: "budget.warningTurnTokens",
  strategy: "budget.strategy",
  maxToolOutputShare: "budget.maxToolOutputShare",
  carry: "continuity.carry",
  notesFlush: "continuity.notesFlush",
  newContextTool: "continuity.newContextTool",
  allow: "toolPolicy.allow",
  maxConcurrency: "subagentSettings.maxConcurrency",
  maxDepth: "subagentSettings.maxDepth",
  maxAnswerChars: "subagentSettings.maxAnswerChars",
  ttl: "cache.ttl",
  root: "memory.root",
  readOnly: "memory.readOnly",
  temperature: "callSettings.temperature",
  topP: "callSettings.topP",
  topK: "callSettings.topK",
  presencePenalty: "callSettings.presencePenalty",
  frequencyPenalty: "callSettings.frequencyPenalty",
  stopSequences: "callSettings.stopSequences",
  seed: "callSettings.seed",
  headers: "callSettings.headers",
  maxOutputTokens: "budget.outputReserve (ctxwin sets each request's maxOutputTokens from it)",
};

/**
 * Throws `InvalidArgumentError` for the first key of `options` that `caller` does not take.
 *
 * @example checkOptionKeys({ options, caller: "createAgentSession" }); // createAgentSession({ contextLimit }) throws
 */
export function checkOptionKeys({
  options,
  caller,
  extraKeys = [],
}: {
  options: object;
  caller: "createAgentSession" | "createContextAgent";
  /** Keys `caller` takes besides the session's. */
  extraKeys?: readonly string[];
}): void {
  const known = new Set<string>([...SESSION_OPTION_KEYS, ...extraKeys]);
  const unknown = Object.keys(options).find((key) => !known.has(key));
  if (unknown === undefined) return;
  const nested = Object.hasOwn(NESTED_OPTIONS, unknown) ? NESTED_OPTIONS[unknown] : undefined;
  throw new InvalidArgumentError(
    nested === undefined
      ? `${caller} has no option ${JSON.stringify(unknown)}; its options are ${[...known].join(", ")}.`
      : `${caller} has no option ${JSON.stringify(unknown)}: it lives at ${nested}.`,
  );
}
