/**
 * The caller's own settings of the AI SDK's loop (`stopWhen`, `prepareStep`, `onStepFinish`,
 * `providerOptions` and the usual call settings), applied around ctxwin's: ctxwin's stop
 * conditions come first and the caller's may stop a turn earlier; the caller's `prepareStep` may
 * choose tools and provider options for a step, but the messages, system prompt and model stay
 * ctxwin's (the store's window is the request; the budget checked that model). A caller's
 * `providerOptions` never override the ones ctxwin sets for self-contained requests.
 */
import type { SharedV3ProviderOptions } from "@ai-sdk/provider";
import type { CallSettings, LanguageModel, ModelMessage, PrepareStepFunction, PrepareStepResult, StepResult, StopCondition, ToolChoice, ToolSet } from "ai";

type ProviderOptions = SharedV3ProviderOptions;

export interface LoopSettings {
  /** Stop conditions of the caller, checked after ctxwin's (a turn stops when any is met). */
  stopWhen?: StopCondition<ToolSet> | Array<StopCondition<ToolSet>>;
  /** Called before each step with the window's messages; may set `activeTools`, `toolChoice`, `providerOptions`. */
  prepareStep?: PrepareStepFunction<ToolSet>;
  /** Called after each step settles and is stored. */
  onStepFinish?: (step: StepResult<ToolSet>) => void | PromiseLike<void>;
  /** Provider options of every request, merged under the ones ctxwin sets. */
  providerOptions?: ProviderOptions;
  /** The usual call settings (temperature, topP, seed, headers, …); the output limit stays the budget's. */
  callSettings?: Omit<CallSettings, "maxOutputTokens" | "abortSignal" | "maxRetries">;
  toolChoice?: ToolChoice<ToolSet>;
}

/** Stop conditions of a turn: ctxwin's, then the caller's. */
export function stopConditions(ours: Array<StopCondition<ToolSet>>, loop: LoopSettings): Array<StopCondition<ToolSet>> {
  const theirs = loop.stopWhen === undefined ? [] : Array.isArray(loop.stopWhen) ? loop.stopWhen : [loop.stopWhen];
  return [...ours, ...theirs];
}

/** Provider options: the caller's, with ctxwin's own keys on top. */
export function mergeProviderOptions(ours: Record<string, Record<string, boolean>> | undefined, theirs: ProviderOptions | undefined): { providerOptions?: ProviderOptions } {
  if (theirs === undefined) return ours === undefined ? {} : { providerOptions: ours };
  const merged: ProviderOptions = { ...theirs };
  for (const [provider, options] of Object.entries(ours ?? {})) merged[provider] = { ...theirs[provider], ...options };
  return { providerOptions: merged };
}

/**
 * What a step sends after the caller's `prepareStep` saw it: ctxwin's messages and system prompt,
 * with the choices the caller may make for a step.
 */
export async function applyCallerPrepareStep({
  loop,
  messages,
  ours,
  stepNumber,
  steps,
  model,
  experimentalContext,
  warnOnce,
}: {
  loop: LoopSettings;
  /** The messages the step sends, as the caller's `prepareStep` sees them. */
  messages: ModelMessage[];
  /** ctxwin's own override of the step (undefined: the request as `streamText` was given it). */
  ours: { messages: ModelMessage[]; system?: string } | undefined;
  stepNumber: number;
  steps: Array<StepResult<ToolSet>>;
  model: LanguageModel;
  experimentalContext: unknown;
  warnOnce: (message: string) => void;
}): Promise<PrepareStepResult<ToolSet> | undefined> {
  if (loop.prepareStep === undefined) return ours;
  const theirs = await loop.prepareStep({ steps, stepNumber, model, messages, experimental_context: experimentalContext });
  if (theirs === undefined || theirs === null) return ours;
  if (theirs.messages !== undefined || theirs.system !== undefined || theirs.model !== undefined) {
    warnOnce("ctxwin: a prepareStep result's messages, system and model are ignored: the request is built from the session's window, checked against the budget of the session's model.");
  }
  const { messages: _messages, system: _system, model: _model, ...allowed } = theirs;
  return { ...allowed, ...(ours ?? {}) };
}

/** The loop settings given, without the ones left out (exactOptionalPropertyTypes). */
export function loopSettingsOf(settings: { [Key in keyof LoopSettings]?: LoopSettings[Key] | undefined }): LoopSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as LoopSettings;
}
