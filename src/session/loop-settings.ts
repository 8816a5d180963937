/**
 * The caller's own settings of the AI SDK's loop (`stopWhen`, `prepareStep`, `onStepEnd`,
 * `providerOptions`, `runtimeContext`, `toolsContext` and the usual call settings), applied around ctxwin's: ctxwin's stop
 * conditions come first and the caller's may stop a turn earlier; the caller's `prepareStep` may
 * choose tools and provider options for a step, but the messages, instructions and model stay
 * ctxwin's (the store's window is the request; the budget checked that model). A caller's
 * `providerOptions` never override the ones ctxwin sets for self-contained requests.
 */
import type { SharedV4ProviderOptions } from "@ai-sdk/provider";
import type {
  CallSettings,
  ModelMessage,
  PrepareStepFunction,
  PrepareStepResult,
  StepResult,
  StopCondition,
  ToolChoice,
  ToolSet,
} from "ai";

type ProviderOptions = SharedV4ProviderOptions;

/** The AI SDK's context type (`runtimeContext`, a tool's `context`): an object of named values. */
export type Context = Record<string, unknown>;

export interface LoopSettings {
  /** Stop conditions of the caller, checked after ctxwin's (a turn stops when any is met). */
  stopWhen?: StopCondition<ToolSet> | Array<StopCondition<ToolSet>>;
  /** Called before each step with the window's messages; may set `activeTools`, `toolChoice`, `providerOptions`. */
  prepareStep?: PrepareStepFunction<ToolSet>;
  /** Called after each step settles and is stored (AI SDK 7's `onStepEnd`; `onStepFinish` is its old name). */
  onStepEnd?: (step: StepResult<ToolSet>) => void | PromiseLike<void>;
  /** Provider options of every request, merged under the ones ctxwin sets. */
  providerOptions?: ProviderOptions;
  /** The usual call settings (temperature, topP, seed, headers, …); the output limit stays the budget's. */
  callSettings?: Omit<CallSettings, "maxOutputTokens" | "abortSignal" | "maxRetries">;
  toolChoice?: ToolChoice<ToolSet>;
  /** Shared data of every step (AI SDK 7's `runtimeContext`): `prepareStep`, step results and events see it. */
  runtimeContext?: Context;
  /** Each tool's own context, by tool name (AI SDK 7's `toolsContext`; a tool declares it with `contextSchema`). */
  toolsContext?: Record<string, Context>;
}

/** Stop conditions of a turn: ctxwin's, then the caller's. */
export function stopConditions(ours: Array<StopCondition<ToolSet>>, loop: LoopSettings): Array<StopCondition<ToolSet>> {
  const theirs = loop.stopWhen === undefined ? [] : Array.isArray(loop.stopWhen) ? loop.stopWhen : [loop.stopWhen];
  return [...ours, ...theirs];
}

/** The caller's `runtimeContext` and `toolsContext`, as `streamText` takes them (only those given). */
export function loopContexts(loop: LoopSettings): { runtimeContext?: Context; toolsContext?: never } {
  return {
    ...(loop.runtimeContext === undefined ? {} : { runtimeContext: loop.runtimeContext }),
    // Typed by the tool set at the call; ctxwin's tool set is the open `ToolSet`.
    ...(loop.toolsContext === undefined ? {} : { toolsContext: loop.toolsContext as never }),
  };
}

/** Provider options: the caller's, with ctxwin's own keys on top. */
export function mergeProviderOptions(
  ours: Record<string, Record<string, boolean>> | undefined,
  theirs: ProviderOptions | undefined,
): { providerOptions?: ProviderOptions } {
  if (theirs === undefined) return ours === undefined ? {} : { providerOptions: ours };
  const merged: ProviderOptions = { ...theirs };
  for (const [provider, options] of Object.entries(ours ?? {})) merged[provider] = { ...theirs[provider], ...options };
  return { providerOptions: merged };
}

/** What the SDK's `prepareStep` is called with. */
type PrepareStepOptions = Parameters<PrepareStepFunction<ToolSet>>[0];

/**
 * What a step sends after the caller's `prepareStep` saw it: ctxwin's messages and instructions,
 * with the choices the caller may make for a step.
 */
export async function applyCallerPrepareStep({
  loop,
  step,
  ours,
  warnOnce,
}: {
  loop: LoopSettings;
  /** The SDK's options for the step, with the messages and instructions the step sends. */
  step: PrepareStepOptions;
  /** ctxwin's own override of the step (undefined: the request as `streamText` was given it). */
  ours: { messages: ModelMessage[]; instructions?: string } | undefined;
  warnOnce: (message: string) => void;
}): Promise<PrepareStepResult<ToolSet> | undefined> {
  if (loop.prepareStep === undefined) return ours;
  const theirs = await loop.prepareStep(step);
  if (theirs === undefined || theirs === null) return ours;
  if (
    theirs.messages !== undefined ||
    theirs.system !== undefined ||
    theirs.instructions !== undefined ||
    theirs.model !== undefined
  ) {
    warnOnce(
      "ctxwin: a prepareStep result's messages, instructions and model are ignored: " +
        "the request is built from the session's window, checked against the budget of the session's model.",
    );
  }
  const { messages: _messages, system: _system, instructions: _instructions, model: _model, ...allowed } = theirs;
  return { ...allowed, ...(ours ?? {}) } as PrepareStepResult<ToolSet>;
}

/** The loop settings given, without the ones left out (exactOptionalPropertyTypes). */
export function loopSettingsOf(settings: {
  [Key in keyof LoopSettings]?: LoopSettings[Key] | undefined;
}): LoopSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as LoopSettings;
}
