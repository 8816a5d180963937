/**
 * `createAgentSession`: an agent session on the AI SDK that never sends an over-limit request,
 * rolls over at the budget without losing anything, warns the agent once per window, and recovers
 * from crashes and provider errors (docs/design.md §5–6, §10).
 */
import type { LanguageModel, ToolSet, UIMessageChunk } from "ai";
import { assertSessionId } from "../core/row.js";
import { InvalidArgumentError } from "../core/errors.js";
import { resetBoundaryRow } from "../core/rollover/notice-rows.js";
import { windowIdFor } from "../core/windows.js";
import { createBudgetPolicy } from "./budget-policy.js";
import { SessionStoreError } from "./errors.js";
import { createSendFlow } from "./send-flow.js";
import { compactActiveWindow, type CompactResult } from "./compaction.js";
import { primaryModel, type SessionContext } from "./session-context.js";
import { createSessionEvents, type SessionEventName, type SessionListener, type TurnSink } from "./session-events.js";
import { createSessionLock } from "./session-lock.js";
import type {
  AgentSessionOptions,
  HotMemoriesProvider,
  SendInput,
  SendOptions,
  SendResult,
  SessionUsage,
} from "./session-types.js";
import { buildToolSet } from "./tool-set.js";
import { createTurnQueue } from "./turn-queue.js";
import { createSessionCalibration } from "./session-calibration.js";
import { readSessionUsage } from "./session-usage.js";
import { sessionHistoryTool } from "../tools/session-history/session-history-tool.js";
import { memoryTool } from "../tools/memory/memory-tool.js";
import { renderHotMemories } from "../tools/memory/hot-memories.js";
import { CONTEXT_NOTES_PATH } from "../core/hot-memories/limits.js";
import { newContextTool } from "../tools/new-context/new-context-tool.js";
import { newContextRequester } from "./new-context.js";
import { loopSettingsOf } from "./loop-settings.js";
import { sendAsUIMessageStream, type UIMessageStreamOptions } from "./ui-message-stream.js";
import { createWindowMemories } from "./window-memories.js";
import { subagentTaskTool } from "./subagents/subagent-task-tool.js";
import { checkOptionKeys } from "./option-keys.js";
import type { SessionForkOptions } from "./lineage/fork-stored-session.js";
import { lineageMethods, type SessionEditOptions } from "./lineage/session-lineage.js";

export interface AgentSession {
  readonly sessionId: string;
  /**
   * Sends one input; resolves when its turn and every continuation it queued have finished.
   * `options.signal` interrupts it (status `interrupted`, what streamed is stored).
   */
  send(input: SendInput, options?: SendOptions): Promise<SendResult>;
  /** Manual soft clear: writes a `reset` boundary (a privacy floor) and drops any pending rollover. */
  clear(options: { soft: true }): Promise<{ windowId: string }>;
  /** Summarizes the active window into a `compaction` boundary; drops any pending rollover. */
  compact(): Promise<CompactResult>;
  /** Token figures of the active window for a budget bar. */
  usage(): Promise<SessionUsage>;
  /** Switches the primary model; a pending rollover and a queued `continue` are dropped. */
  setModel(model: LanguageModel): Promise<void>;
  /**
   * Sends one input and returns its answer as the AI SDK's UI message stream (what `useChat`
   * reads): tool calls and results as the SDK's tool parts, ctxwin's budget facts as
   * `data-ctxwin-*` parts (ui-message-stream.ts). The send runs whether or not the stream is read.
   */
  toUIMessageStream(input: SendInput, options?: UIMessageStreamOptions): ReadableStream<UIMessageChunk>;
  on<Name extends SessionEventName>(name: Name, listener: SessionListener<Name>): () => void;
  /**
   * A new session sharing this one's history up to an item (default: the last), without copying
   * it (ADR 0059), opened with this session's options. It starts clean: no pending rollover or
   * warning of this session goes with it, and this session is not changed (ADR 0068).
   */
  fork(options?: SessionForkOptions): Promise<AgentSession>;
  /**
   * Edits an earlier user message: forks just before it and sends `input` there as the next turn.
   * This session is not changed. Refused (`EditRefusedError`, `ForkRefusedError`; nothing written)
   * for an item that is unknown, not the user's message, or behind the privacy floor, or a
   * `newSessionId` in use.
   */
  edit(options: SessionEditOptions, sendOptions?: SendOptions): Promise<SessionEdit>;
}

/** What `session.edit` made: the new session, and the send of the edited message in it. */
export interface SessionEdit {
  session: AgentSession;
  /** The edited message's item id in the original session. */
  editedItemId: string;
  result: SendResult;
}

const noHotMemories: HotMemoriesProvider = { mode: "off", render: async () => "" };

/** The `<hot_memories>` block of a session with memory, read fresh for every request. */
function memoryHotMemories(
  memory: AgentSessionOptions["memory"],
  sessionId: string,
  now: () => Date,
  countTokens: (text: string) => number,
): HotMemoriesProvider {
  if (memory === undefined || memory === false) return noHotMemories;
  return {
    mode: memory.readOnly === true ? "read-only" : "read-write",
    render: async () => renderHotMemories({ root: memory.root, sessionId, now, countTokens }).text,
  };
}

/**
 * The session engine behind both faces: the `AgentSession` of `createAgentSession` and the AI SDK
 * `Agent` of `createContextAgent`, which sends through `sendWithSink` to stream its output.
 */
export interface SessionEngine {
  session: AgentSession;
  sendWithSink: (input: SendInput, options: SendOptions, sink: TurnSink) => Promise<SendResult>;
  /** The pinned notes file, when the session has memory. */
  notesPath: string | undefined;
  /** The tools the agent is offered (the caller's, plus the built-in ones its policy grants). */
  tools: ToolSet;
}

/**
 * @example
 * const session = createAgentSession({ store: openStore(), sessionId: "build-42", model: openai("gpt-4o"), tools });
 * const result = await session.send("Summarize the open issues.");
 * if (result.status === "blocked") console.log(result.reason);
 * const controller = new AbortController(); // Ctrl-C: controller.abort()
 * const partial = await session.send("Write the report.", { signal: controller.signal });
 */
export function createAgentSession(options: AgentSessionOptions): AgentSession {
  checkOptionKeys({ options, caller: "createAgentSession" });
  return createSessionEngine(options).session;
}

/**
 * @example const { session, sendWithSink } = createSessionEngine({ store, sessionId, model });
 */
export function createSessionEngine(options: AgentSessionOptions): SessionEngine {
  const {
    store,
    sessionId,
    model,
    fallbackModels = [],
    system,
    tools,
    toolPolicy,
    budget = {},
    memory = false,
    continuity = {},
    maxSteps = 20,
    maxTurnsPerSend = 25,
    maxRetries = 2,
    providerStore = false,
    cache = {},
    retryDelay = (retry) => Math.min(30_000, 1_000 * 2 ** (retry - 1)),
    now = () => new Date(),
    generateId = () => crypto.randomUUID(),
    budgetPolicy,
    hotMemories,
    historyTool = sessionHistoryTool,
    logWarning = (message) => console.warn(message),
    stopWhen,
    prepareStep,
    onStepEnd,
    onStepFinish,
    runtimeContext,
    toolsContext,
    providerOptions,
    callSettings,
    toolChoice,
    subagents,
    subagentSettings,
    subagentDepth = 0,
  } = options;
  assertSessionId(sessionId);
  if (!Number.isInteger(maxSteps) || maxSteps < 1)
    throw new InvalidArgumentError(`maxSteps must be a positive integer, got ${maxSteps}`);
  if (!Number.isInteger(maxRetries) || maxRetries < 0)
    throw new InvalidArgumentError(`maxRetries must be a whole number of 0 or more, got ${maxRetries}`);
  if (cache !== false && cache.ttl !== undefined && cache.ttl !== "5m" && cache.ttl !== "1h") {
    throw new InvalidArgumentError(
      `cache.ttl must be "5m" or "1h" (Anthropic's two cache lifetimes), got ${JSON.stringify(cache.ttl)}`,
    );
  }
  const policy = budgetPolicy ?? createBudgetPolicy({ settings: budget, primaryModel: model });
  const strategy = budget.strategy ?? "rollover";
  // Only a rollover session can open a window on request: `compact` would summarize, `off` never rolls over.
  const offersNewContext = continuity.newContextTool === true && strategy === "rollover";
  const toolSet = buildToolSet({
    ...(tools === undefined ? {} : { tools }),
    ...(toolPolicy === undefined ? {} : { toolPolicy }),
    historyTool: historyTool({ store, sessionId }),
    ...(memory === false
      ? {}
      : { memoryTool: memoryTool({ root: memory.root, sessionId, readOnly: memory.readOnly === true, now }) }),
    ...(offersNewContext ? { newContextTool: newContextTool({ request: newContextRequester(() => context) }) } : {}),
    ...(subagents === undefined || Object.keys(subagents).length === 0
      ? {}
      : {
          taskTool: subagentTaskTool({
            store,
            sessionId,
            subagents,
            settings: subagentSettings,
            depth: subagentDepth,
            parentModel: () => primaryModel(context),
            parentBudget: budget,
            parentMemory: memory,
            generateId,
            inherited: { now, generateId, logWarning, maxRetries, retryDelay },
            startChild: createAgentSession,
          }),
        }),
  });
  const warned = new Set<string>();
  const events = createSessionEvents({ sink: () => context.activeSink });
  const context: SessionContext = {
    store,
    sessionId,
    now,
    generateId,
    policy,
    strategy,
    models: [model, ...fallbackModels],
    system,
    tools: toolSet.tools,
    historyToolAvailable: toolSet.historyToolAvailable,
    // Counted with the current primary model, so a setModel() also changes how memories are measured.
    hotMemories:
      hotMemories ??
      memoryHotMemories(memory, sessionId, now, (text) => policy.countTokens(text, primaryModel(context))),
    windowMemories: createWindowMemories({ render: () => context.hotMemories.render() }),
    notesPath: memory === false ? undefined : CONTEXT_NOTES_PATH,
    maxSteps,
    continuity: {
      carry: continuity.carry ?? true,
      notesFlush: continuity.notesFlush ?? true,
      newContextTool: offersNewContext,
    },
    maxRetries,
    providerStore,
    cache: { enabled: cache !== false, ttl: cache === false ? undefined : cache.ttl, refusedBy: new Set() },
    retryDelay,
    maxToolOutputShare: budget.maxToolOutputShare ?? 0.5,
    events,
    warnOnce: (message) => {
      if (warned.has(message)) return;
      warned.add(message);
      logWarning(message);
    },
    overheadEstimates: new Map(),
    calibration: createSessionCalibration(),
    loop: loopSettingsOf({
      stopWhen,
      prepareStep,
      onStepEnd: onStepEnd ?? onStepFinish,
      providerOptions,
      callSettings,
      toolChoice,
      runtimeContext,
      toolsContext,
    }),
  };
  const queue = createTurnQueue();
  const lock = createSessionLock();
  const send = createSendFlow({ context, queue, lock, maxTurnsPerSend });
  const lineage = lineageMethods({
    store,
    sessionId,
    generateId,
    open: (forkId) => createAgentSession({ ...options, sessionId: forkId }),
    send: (opened, input, sendOptions) => opened.send(input, sendOptions),
  });

  const session: AgentSession = {
    sessionId,
    send,
    clear: (options) =>
      lock.run(async () => {
        if (options?.soft !== true)
          throw new InvalidArgumentError(
            "clear() needs { soft: true }: a soft clear keeps the transcript and starts a fresh window. To delete a session, use store.deleteSession().",
          );
        queue.supersede();
        try {
          const [row] = await store.append(sessionId, [resetBoundaryRow({ createdAt: now().toISOString() })], {
            operationId: `${generateId()}:clear`,
          });
          return { windowId: windowIdFor(row?.seq ?? 0) };
        } catch (error) {
          throw new SessionStoreError("the reset boundary", error);
        }
      }),
    compact: () =>
      lock.run(async () => {
        queue.supersede();
        return compactActiveWindow(context, { operationId: `${generateId()}:compact` });
      }),
    usage: () => readSessionUsage(context, primaryModel(context)),
    setModel: (next) =>
      lock.run(async () => {
        queue.supersede();
        context.models = [next, ...context.models.slice(1)];
      }),
    on: (name, listener) => events.on(name, listener),
    fork: (forkOptions) => lineage.fork(forkOptions),
    edit: async (editOptions, sendOptions) => {
      const { opened, editedItemId, result } = await lineage.edit(editOptions, sendOptions);
      return { session: opened, editedItemId, result };
    },
    toUIMessageStream: (input, options) =>
      sendAsUIMessageStream({
        send,
        input,
        notesPath: context.notesPath,
        ...(options === undefined ? {} : { options }),
      }),
  };
  return { session, sendWithSink: send, notesPath: context.notesPath, tools: toolSet.tools };
}
