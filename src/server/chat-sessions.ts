/**
 * The agents of a running server: at most one agent (`createContextAgent`) per session id, one
 * turn at a time per session (409 while busy), interrupts through the send's abort signal, and
 * every session event relayed to the session's SSE subscribers. A turn starts from the page's
 * `useChat` request (`streamChat`, answered as a UI message stream) or from a plain message. Settings changes apply to turns started after
 * them: idle agents are dropped and re-created with the new settings on their next use.
 */
import { resetBoundaryRow } from "../core/rollover/notice-rows.js";
import { windowIdFor } from "../core/windows.js";
import type { ServerResponse } from "node:http";
import type { ContextAgent } from "../session/context-agent/create-context-agent.js";
import type { SendResult } from "../session/session-types.js";
import type { HistoryStore } from "../store/port.js";
import { ApiError } from "./api-error.js";
import { pipeChatAnswer } from "./chat-answer.js";
import type { EventHub } from "./event-hub.js";
import type { ServerChat } from "./server-chat.js";
import type { SettingsStore } from "./settings-file.js";
import { usageFromStore, usageViewOf, type BudgetSettingsForUsage } from "./usage-view.js";
import type { SessionListEntry, UsageView } from "./view-types.js";

/** Longest chat message accepted (characters). */
export const MAX_MESSAGE_CHARS = 200_000;

interface AgentState {
  agent: ContextAgent;
  settings: BudgetSettingsForUsage;
  /** Settings changed since the agent was made: replace it when it is idle. */
  stale: boolean;
  unsubscribe: Array<() => void>;
}

interface Activity {
  kind: "turn" | "clear" | "compact";
  controller: AbortController | undefined;
  done: Promise<void>;
}

export interface ChatSessionsOptions {
  store: HistoryStore;
  directory: string;
  chat: ServerChat | undefined;
  settings: SettingsStore;
  hub: EventHub;
  now?: () => Date;
  generateId?: () => string;
  log?: (message: string, error: unknown) => void;
}

/**
 * @example
 * const chats = createChatSessions({ store, directory, chat, settings, hub });
 * await chats.send("s1", "What does src/index.ts export?");
 */
export function createChatSessions({
  store,
  directory,
  chat,
  settings,
  hub,
  now = () => new Date(),
  generateId = () => crypto.randomUUID(),
  log = console.error,
}: ChatSessionsOptions) {
  const agents = new Map<string, AgentState>();
  const activities = new Map<string, Activity>();
  /** Sessions made with POST /api/sessions that have no stored row yet. */
  const created = new Map<string, string>();
  /** Running turns, so that `close` can wait for them. */
  const turns = new Set<Promise<void>>();

  const requireChat = (): ServerChat => {
    if (chat === undefined)
      throw new ApiError({
        status: 409,
        code: "chat-unavailable",
        message: "Chat is not available: start ctxwin serve with --model <provider:model> or --demo-model.",
      });
    return chat;
  };

  const newSessionId = (prefix: string): string => {
    const stamp = now().toISOString().replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-");
    return `${prefix}-${stamp}-${generateId().slice(0, 8)}`;
  };

  const requireIdle = (sessionId: string) => {
    if (activities.has(sessionId))
      throw new ApiError({
        status: 409,
        code: "busy",
        message: "The session is busy with a turn; wait for it to end or interrupt it.",
      });
  };

  async function budgetSettings(): Promise<{
    usage: BudgetSettingsForUsage;
    read: Awaited<ReturnType<SettingsStore["read"]>>;
  }> {
    const read = await settings.read();
    const outputReserve = read.config.budget?.outputReserve;
    return {
      usage: {
        strategy: read.view.strategy,
        threshold: read.view.threshold,
        ...(outputReserve === undefined ? {} : { outputReserve }),
      },
      read,
    };
  }

  async function agentFor(sessionId: string): Promise<AgentState> {
    const current = agents.get(sessionId);
    if (current !== undefined && !current.stale) return current;
    if (current !== undefined) dropAgent(sessionId);
    const serverChat = requireChat();
    const { usage, read } = await budgetSettings();
    const contextAgent = serverChat.createAgent({
      store,
      sessionId,
      directory,
      config: read.config,
      contextLimit: read.contextLimit,
      maxInputChars: MAX_MESSAGE_CHARS,
    });
    const state: AgentState = { agent: contextAgent, settings: usage, stale: false, unsubscribe: [] };
    const agent = contextAgent.session;
    const relay = state.unsubscribe;
    relay.push(agent.on("text-delta", (event) => hub.emit(sessionId, "text-delta", { delta: event.delta })));
    relay.push(
      agent.on("step-end", (event) => {
        hub.emit(sessionId, "step-end", { seq: event.row.seq });
        hub.noticeLastSeq(sessionId, event.row.seq);
      }),
    );
    relay.push(
      agent.on("usage", (event) =>
        hub.emit(
          sessionId,
          "usage",
          usageViewOf({
            windowId: event.windowId,
            contextTokens: event.contextTokens,
            contextLimit: event.contextLimit,
            settings: state.settings,
            model: serverChat.modelKey ?? null,
          }),
        ),
      ),
    );
    relay.push(agent.on("budget-warning", () => hub.emit(sessionId, "budget-warning", {})));
    relay.push(
      agent.on("rollover", (event) =>
        hub.emit(sessionId, "rollover", {
          windowId: event.windowId,
          reason: event.reason,
          percent: event.maxTokens > 0 ? Math.round((event.contextTokens / event.maxTokens) * 100) : null,
        }),
      ),
    );
    relay.push(agent.on("blocked", (event) => hub.emit(sessionId, "blocked", { reason: event.reason })));
    relay.push(agent.on("error", (event) => hub.emit(sessionId, "error", { message: event.error.message })));
    // A step cut by a provider failure is asked again: the UI drops what streamed of it.
    relay.push(
      agent.on("retry", (event) =>
        hub.emit(sessionId, "retry", {
          message: event.error.message,
          retry: event.retry,
          discardedChars: event.discardedText.length,
        }),
      ),
    );
    agents.set(sessionId, state);
    return state;
  }

  function dropAgent(sessionId: string) {
    const state = agents.get(sessionId);
    if (state === undefined) return;
    for (const unsubscribe of state.unsubscribe) unsubscribe();
    agents.delete(sessionId);
  }

  /**
   * Marks a session busy (synchronously, so that a second request finds it busy) and runs `work`;
   * the session is idle again when the work settles.
   */
  function track(
    sessionId: string,
    kind: Activity["kind"],
    controller: AbortController | undefined,
    work: (settled: Promise<void>) => Promise<void>,
  ): Promise<void> {
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    activities.set(sessionId, { kind, controller, done: settled });
    return (async () => {
      try {
        await work(settled);
      } finally {
        activities.delete(sessionId);
        if (agents.get(sessionId)?.stale === true) dropAgent(sessionId);
        settle();
      }
    })();
  }

  /** After an activity: tell subscribers about new rows and the new usage. */
  async function publishAfterChange(sessionId: string) {
    const lastSeq = await store.lastSeq(sessionId);
    if (lastSeq > 0) created.delete(sessionId);
    hub.noticeLastSeq(sessionId, lastSeq);
    hub.emit(sessionId, "usage", await usage(sessionId));
  }

  async function usage(sessionId: string): Promise<UsageView> {
    const state = agents.get(sessionId);
    if (state !== undefined && !state.stale && !activities.has(sessionId)) {
      const figure = await state.agent.session.usage();
      return usageViewOf({
        windowId: figure.windowId,
        contextTokens: figure.contextTokens,
        contextLimit: figure.contextLimit,
        settings: state.settings,
        spend: figure.window ?? null,
        model: chat?.modelKey ?? null,
      });
    }
    const { usage: budget, read } = await budgetSettings();
    return usageFromStore({
      store,
      sessionId,
      config: read.config,
      settings: budget,
      contextLimit: read.contextLimit,
      fallbackModelKey: chat?.modelKey,
    });
  }

  /**
   * Runs a turn: marks the session busy, gets its agent and calls `begin`, which starts the send
   * (calling `announce` first) and gives how it ends; `idle` settles when the session is free again
   * (an answer streamed to a client ends after it). Resolves once the send has started; rejects
   * when the agent could not be made or `begin` refused the input (the session is idle again).
   */
  async function runTurn(
    sessionId: string,
    begin: (
      state: AgentState,
      signal: AbortSignal,
      announce: () => void,
      idle: Promise<void>,
    ) => Promise<{ ended: Promise<SendResult>; written?: Promise<void> }>,
  ): Promise<void> {
    requireChat();
    requireIdle(sessionId);
    const controller = new AbortController();
    let running!: () => void;
    let failedToStart!: (error: unknown) => void;
    const started = new Promise<void>((resolve, reject) => {
      running = resolve;
      failedToStart = reject;
    });
    const turn = track(sessionId, "turn", controller, async (idle) => {
      let ending: Promise<SendResult>;
      try {
        const begun = await begin(
          await agentFor(sessionId),
          controller.signal,
          () => hub.emit(sessionId, "turn-start", {}),
          idle,
        );
        ending = begun.ended;
        // The answer is written while the turn runs and finishes after it (once the session is idle).
        begun.written?.catch((error: unknown) =>
          log(`ctxwin serve: the answer of session '${sessionId}' could not be written:`, error),
        );
      } catch (error) {
        failedToStart(error);
        return;
      }
      running();
      let ended: { status: string; text: string };
      try {
        const result = await ending;
        ended = { status: result.status, text: result.text };
        if (result.status === "failed" && result.error !== undefined)
          hub.emit(sessionId, "error", { message: result.error.message });
      } catch (error) {
        log(`ctxwin serve: a turn of session '${sessionId}' failed:`, error);
        hub.emit(sessionId, "error", { message: error instanceof Error ? error.message : String(error) });
        ended = { status: "failed", text: "" };
      }
      await publishAfterChange(sessionId);
      hub.emit(sessionId, "turn-end", ended);
    });
    turns.add(turn);
    turn
      .catch((error: unknown) => {
        log(`ctxwin serve: a turn of session '${sessionId}' could not report its end:`, error);
        hub.emit(sessionId, "turn-end", { status: "failed", text: "" });
      })
      .finally(() => turns.delete(turn));
    await started;
  }

  return {
    available: chat !== undefined,
    label: chat?.label ?? null,
    demo: chat?.demo ?? false,
    isBusy: (sessionId: string) => activities.has(sessionId),
    /** Throws the 409 `busy` ApiError while the session runs a turn, a clear or a compaction. */
    requireIdle,
    isCreated: (sessionId: string) => created.has(sessionId),
    /** When a session made here and not stored yet was created. */
    createdAt: (sessionId: string) => created.get(sessionId),
    usage,

    /** A new session id for chatting (stored with its first message); `sessionId` to pick it (checked by the caller). */
    createSession(sessionId: string = newSessionId("web")): string {
      requireChat();
      created.set(sessionId, now().toISOString());
      return sessionId;
    },

    /** A fresh session id, `<prefix>-YYYYMMDD-HHMMSS-xxxxxxxx` (nothing is created). */
    newSessionId,

    /** Sessions created here that have no stored row yet, for the sessions list. */
    createdEntries(): SessionListEntry[] {
      return [...created].map(([sessionId, createdAt]) => ({
        sessionId,
        title: sessionId,
        lastActivity: createdAt,
        windows: 0,
        rows: 0,
        parent: null,
        forkOf: null,
      }));
    },

    /**
     * Starts a turn and returns once it is running; its events go to the session's subscribers and
     * it ends with `turn-end`.
     */
    send(sessionId: string, text: string): Promise<void> {
      return runTurn(sessionId, async (state, signal, announce) => {
        announce();
        return { ended: state.agent.session.send(text, { signal }) };
      });
    },

    /**
     * Answers a `useChat` request on `response` (a UI message stream) and returns once the answer
     * has started; refused messages reject with a 400 before anything is written or sent.
     */
    streamChat(
      sessionId: string,
      { uiMessages, response }: { uiMessages: unknown[]; response: ServerResponse },
    ): Promise<void> {
      return runTurn(sessionId, (state, signal, announce, idle) =>
        pipeChatAnswer({ agent: state.agent, uiMessages, response, signal, onStart: announce, idle }),
      );
    },

    interrupt(sessionId: string): boolean {
      const activity = activities.get(sessionId);
      if (activity?.controller === undefined || activity.controller.signal.aborted) return false;
      activity.controller.abort();
      return true;
    },

    /** Soft clear: a reset boundary (a privacy floor); works without a model. */
    async clear(sessionId: string): Promise<{ windowId: string }> {
      requireIdle(sessionId);
      let windowId = "";
      await track(sessionId, "clear", undefined, async () => {
        const state = agents.get(sessionId);
        if (state !== undefined) {
          windowId = (await state.agent.session.clear({ soft: true })).windowId;
        } else {
          const [row] = await store.append(sessionId, [resetBoundaryRow({ createdAt: now().toISOString() })], {
            operationId: `${generateId()}:clear`,
          });
          windowId = windowIdFor(row?.seq ?? 0);
        }
        await publishAfterChange(sessionId);
      });
      return { windowId };
    },

    /** Summarizes the active window into a compaction boundary (needs a model). */
    async compact(sessionId: string): Promise<{ windowId: string; status: string; reason?: string }> {
      requireChat();
      requireIdle(sessionId);
      let outcome: { windowId: string; status: string; reason?: string } = { windowId: "", status: "failed" };
      await track(sessionId, "compact", undefined, async () => {
        const state = await agentFor(sessionId);
        const result = await state.agent.session.compact();
        if (result.status === "failed")
          throw new ApiError({
            status: 500,
            code: "internal",
            message: `Compaction failed: ${result.error.message}`,
            cause: result.error,
          });
        outcome =
          result.status === "completed"
            ? { windowId: result.windowId, status: "completed" }
            : { windowId: result.windowId, status: "skipped", reason: result.reason };
        await publishAfterChange(sessionId);
      });
      return outcome;
    },

    /** Settings changed: idle agents are re-created on their next use, busy ones after their turn. */
    settingsChanged(): void {
      for (const [sessionId, state] of agents) {
        state.stale = true;
        if (!activities.has(sessionId)) dropAgent(sessionId);
      }
    },

    /** Interrupts every running turn and waits for all activities to settle. */
    async close(): Promise<void> {
      for (const activity of activities.values()) activity.controller?.abort();
      await Promise.all([...activities.values()].map((activity) => activity.done));
      await Promise.allSettled([...turns]);
      for (const sessionId of [...agents.keys()]) dropAgent(sessionId);
    },
  };
}

export type ChatSessions = ReturnType<typeof createChatSessions>;
