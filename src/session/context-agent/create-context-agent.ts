/**
 * `createContextAgent`: the session engine as an AI SDK 7 `Agent` (the `agent-v1` interface
 * `ToolLoopAgent` implements, with its runtime-context type parameter), so a `ToolLoopAgent` user or a `useChat` route handler
 * (`createAgentUIStreamResponse({ agent, uiMessages })`) gets token-budget windows without leaving
 * the AI SDK. The same engine as `createAgentSession` runs every call: durable rows per step,
 * preflight, the warning, the notes slot and flush step, rollovers with the carried task, the
 * privacy floor. A call brings only its new user message; the request is the store's window.
 */
import type {
  Agent,
  AgentCallParameters,
  AgentStreamParameters,
  GenerateTextResult,
  StreamTextResult,
  ToolSet,
} from "ai";
import type { Context } from "../loop-settings.js";
import { createSessionEngine, type AgentSession } from "../create-agent-session.js";
import type { AgentSessionOptions } from "../session-types.js";
import { sendRunning, withSendLock } from "../shared-send-lock.js";
import { startSendChunks, type SendChunks } from "../ui-message-stream.js";
import { AgentInputError, MAX_INPUT_CHARS, newInputOf } from "./agent-input.js";
import {
  generateResultOf,
  streamResultOf,
  type ContextGenerateResult,
  type ContextStreamResult,
} from "./agent-results.js";
import { checkClientHistory } from "./client-history.js";
import { SessionBusyError } from "./session-busy-error.js";
import { checkOptionKeys } from "../option-keys.js";
import type { SessionForkOptions } from "../lineage/fork-stored-session.js";
import { lineageMethods, type SessionEditOptions } from "../lineage/session-lineage.js";
import type { SendOptions, SendResult } from "../session-types.js";

export interface ContextAgentOptions<RUNTIME_CONTEXT extends Context = Context> extends Omit<
  AgentSessionOptions,
  "system" | "runtimeContext"
> {
  /** Shared data of every step, as `ToolLoopAgent`'s `runtimeContext`: `prepareStep` and step results see it. */
  runtimeContext?: RUNTIME_CONTEXT;
  /** The agent's id (the `Agent` interface's `id`). */
  id?: string;
  /** The system prompt; `instructions` is `ToolLoopAgent`'s name for it. */
  system?: string;
  instructions?: string;
  /** Characters of text one new user message may hold (default 1,000,000); more is refused, nothing written. */
  maxInputChars?: number;
  /**
   * Check the messages a caller sends before the new one against the stored conversation, and
   * refuse a copy that differs (default true; client-history.ts).
   */
  checkClientHistory?: boolean;
  /**
   * A call while another call of the same session runs in this process: `"wait"` (default) runs it
   * after that one; `"refuse"` rejects it with `SessionBusyError` (HTTP 409 in a route), nothing written.
   */
  whenBusy?: "wait" | "refuse";
}

const CONTEXT_AGENT_KEYS = ["id", "instructions", "maxInputChars", "checkClientHistory", "whenBusy"] as const;

/**
 * An AI SDK `Agent` whose calls run on a ctxwin session. `stream` returns the members of
 * `StreamTextResult` listed in `ContextStreamResult` (agent-results.ts), plus `ctxwin`; `generate`
 * those of `GenerateTextResult` listed in `ContextGenerateResult`, plus `ctxwin`. Typed as the AI
 * SDK's results with `ctxwin`, so that the agent goes wherever an `Agent` goes.
 *
 * @example
 * const { text, ctxwin } = await agent.generate({ prompt: "Continue." });
 * if (ctxwin.rollovers.length > 0) console.log("rolled over to a fresh window");
 */
export type ContextAgent<RUNTIME_CONTEXT extends Context = Context> = Omit<
  Agent<never, ToolSet, RUNTIME_CONTEXT, never>,
  "generate" | "stream"
> & {
  /** `Agent.generate`, whose result also says how the send ended (`ctxwin`). */
  generate(
    options: AgentCallParameters<never, ToolSet, RUNTIME_CONTEXT>,
  ): Promise<GenerateTextResult<ToolSet, RUNTIME_CONTEXT, never> & ContextGenerateResult>;
  /** `Agent.stream`, whose result also says how the send ends (`ctxwin`). */
  stream(
    options: AgentStreamParameters<never, ToolSet, RUNTIME_CONTEXT>,
  ): Promise<StreamTextResult<ToolSet, RUNTIME_CONTEXT, never> & ContextStreamResult>;
  /** The session face of the same engine: events, `usage()`, `clear`, `compact`. */
  readonly session: AgentSession;
  /**
   * A new agent on a fork of this session (up to an item, default the last), with this agent's
   * options; it starts clean, and this session is not changed (ADR 0068).
   */
  fork(options?: SessionForkOptions): Promise<ContextAgent<RUNTIME_CONTEXT>>;
  /** Edits an earlier user message: a new agent on a fork just before it, which sends `input` as its next turn. */
  edit(
    options: SessionEditOptions,
    sendOptions?: SendOptions,
  ): Promise<{ agent: ContextAgent<RUNTIME_CONTEXT>; editedItemId: string; result: SendResult }>;
};

/**
 * @example
 * const agent = createContextAgent({ store: openStore(), sessionId: chatId, model, instructions, tools });
 * return createAgentUIStreamResponse({ agent, uiMessages: messages });
 */
export function createContextAgent<RUNTIME_CONTEXT extends Context = Context>(
  agentOptions: ContextAgentOptions<RUNTIME_CONTEXT>,
): ContextAgent<RUNTIME_CONTEXT> {
  checkOptionKeys({ options: agentOptions, caller: "createContextAgent", extraKeys: CONTEXT_AGENT_KEYS });
  const {
    id,
    system,
    instructions,
    maxInputChars = MAX_INPUT_CHARS,
    checkClientHistory: checkHistory = true,
    whenBusy = "wait",
    ...options
  } = agentOptions;
  const prompt = system ?? instructions;
  const engine = createSessionEngine({ ...options, ...(prompt === undefined ? {} : { system: prompt }) });
  const { store, sessionId } = options;

  async function start(call: AgentCallParameters<never, ToolSet, RUNTIME_CONTEXT>): Promise<SendChunks> {
    const { input, earlier } = newInputOf({ prompt: call.prompt, messages: call.messages, maxInputChars });
    const signal = signalOf(call);
    // Checked and taken in one synchronous stretch: no other call can get in between.
    if (whenBusy === "refuse" && sendRunning({ store, sessionId })) throw new SessionBusyError(sessionId);
    // AI SDK 7 calls it `onStepEnd`; `onStepFinish` is the deprecated name of the same callback.
    const onStep = call.onStepEnd ?? call.onStepFinish;
    let begin!: (chunks: SendChunks) => void;
    let refuse!: (error: unknown) => void;
    const started = new Promise<SendChunks>((resolve, reject) => ((begin = resolve), (refuse = reject)));
    // The lock is held for the whole send; the stream is handed out as soon as the send starts.
    const locked = withSendLock({ store, sessionId, signal }, async () => {
      try {
        if (checkHistory) await checkClientHistory({ store, sessionId, earlier });
      } catch (error) {
        refuse(error);
        return;
      }
      const chunks = startSendChunks({
        send: engine.sendWithSink,
        input,
        notesPath: engine.notesPath,
        signal,
        ...(onStep === undefined ? {} : { onStep: (step) => onStep(step as Parameters<typeof onStep>[0]) }),
      });
      begin(chunks);
      await chunks.result.catch(() => undefined);
    });
    locked.then(
      (outcome) => {
        if (outcome.status === "aborted")
          refuse(
            new AgentInputError(
              "The call was aborted while another call of the same session ran; nothing was written.",
            ),
          );
      },
      (error: unknown) => refuse(error),
    );
    return started;
  }

  const lineage = lineageMethods({
    store,
    sessionId,
    generateId: options.generateId ?? (() => crypto.randomUUID()),
    open: (forkId) => createContextAgent({ ...agentOptions, sessionId: forkId }),
    send: (opened, input, sendOptions) => opened.session.send(input, sendOptions),
  });
  const agent: ContextAgent<RUNTIME_CONTEXT> = {
    version: "agent-v1" as const,
    id,
    tools: engine.tools,
    session: engine.session,
    async stream(call: AgentStreamParameters<never, ToolSet, RUNTIME_CONTEXT>) {
      return streamResultOf(await start(call)) as unknown as StreamTextResult<ToolSet, RUNTIME_CONTEXT, never> &
        ContextStreamResult;
    },
    async generate(call: AgentCallParameters<never, ToolSet, RUNTIME_CONTEXT>) {
      return (await generateResultOf(await start(call))) as unknown as GenerateTextResult<
        ToolSet,
        RUNTIME_CONTEXT,
        never
      > &
        ContextGenerateResult;
    },
    fork: (forkOptions) => lineage.fork(forkOptions),
    edit: async (editOptions, sendOptions) => {
      const { opened, editedItemId, result } = await lineage.edit(editOptions, sendOptions);
      return { agent: opened, editedItemId, result };
    },
  };
  return agent;
}

/** The call's abort signal, with its timeout (a number, or `totalMs`) added. */
function signalOf(call: Pick<AgentCallParameters<never, ToolSet>, "abortSignal" | "timeout">): AbortSignal | undefined {
  const timeout =
    typeof call.timeout === "number" ? call.timeout : (call.timeout as { totalMs?: number } | undefined)?.totalMs;
  const signals = [call.abortSignal, timeout === undefined ? undefined : AbortSignal.timeout(timeout)].filter(
    (signal): signal is AbortSignal => signal !== undefined,
  );
  if (signals.length <= 1) return signals[0];
  return AbortSignal.any(signals);
}
