/**
 * Runs one `task`: a child session of the calling session, in the same store, with the sub-agent's
 * prompt, tools, model and budget (ADR 0060). The child's rows are durable as it goes (it is an
 * ordinary session); the parent's interrupt aborts it; at most `maxConcurrency` run at once.
 */
import type { LanguageModel } from "ai";
import type { HistoryStore } from "../../store/port.js";
import type { AgentSession } from "../create-agent-session.js";
import type { AgentSessionOptions, SessionBudgetOptions } from "../session-types.js";
import { claimChildSessionId } from "./child-session-id.js";
import type { ConcurrencyLimit } from "./concurrency-limit.js";
import { storeWithParent } from "./store-with-parent.js";
import type { SubagentDefinition, SubagentSettings, TaskResult } from "./subagent-types.js";
import type { TaskRequest } from "./task-tool.js";

export interface TaskRunnerOptions {
  store: HistoryStore;
  /** The calling (parent) session. */
  sessionId: string;
  subagents: Readonly<Record<string, SubagentDefinition>>;
  settings: Required<SubagentSettings>;
  /** How deep the calling session is (0 for a session no task started). */
  depth: number;
  parentModel: () => LanguageModel;
  parentBudget: SessionBudgetOptions;
  parentMemory: { root: string; readOnly?: boolean } | false;
  limit: ConcurrencyLimit;
  /** Child ids this session's calls took (ADR 0074): no two calls share a child. */
  claimedChildIds: Set<string>;
  generateId: () => string;
  /** Options every child shares with its parent (clock, warnings, retries). */
  inherited: Pick<AgentSessionOptions, "now" | "generateId" | "logWarning" | "maxRetries" | "retryDelay">;
  /** Builds a child session (createAgentSession, passed in to keep the modules acyclic). */
  startChild: (options: AgentSessionOptions) => AgentSession;
}

/** @example const result = await runTask(runner, { agent: "reviewer", prompt, toolCallId, abortSignal }); */
export async function runTask(runner: TaskRunnerOptions, request: TaskRequest): Promise<TaskResult> {
  const { settings } = runner;
  if (runner.depth >= settings.maxDepth) {
    return {
      status: "refused",
      code: "depth_limit",
      message:
        `This session is a sub-agent ${runner.depth} levels deep, the limit ` +
        `(maxDepth ${settings.maxDepth}): it cannot start another. Do the task yourself.`,
    };
  }
  const definition = runner.subagents[request.agent] as SubagentDefinition;
  // The task call is stored in the row the parent's step appends next (ADR 0060).
  const itemId = String((await runner.store.lastSeq(runner.sessionId)) + 1);
  const childId = await claimChildSessionId({
    store: runner.store,
    parentSessionId: runner.sessionId,
    agent: request.agent,
    toolCallId: request.toolCallId,
    itemId,
    claimed: runner.claimedChildIds,
    generateId: runner.generateId,
  });
  const interrupted = (): TaskResult => ({
    status: "interrupted",
    agent: request.agent,
    session_id: childId,
    answer: "",
    answer_chars: 0,
    truncated: false,
  });
  return runner.limit.run(async () => {
    if (request.abortSignal?.aborted === true) return interrupted();
    const child = runner.startChild({
      ...runner.inherited,
      store: storeWithParent(runner.store, { sessionId: runner.sessionId, itemId }),
      sessionId: childId,
      model: definition.model ?? runner.parentModel(),
      system: definition.system,
      ...(definition.tools === undefined ? {} : { tools: definition.tools }),
      ...(definition.toolPolicy === undefined ? {} : { toolPolicy: definition.toolPolicy }),
      budget: definition.budget ?? runner.parentBudget,
      memory: childMemory(definition, runner.parentMemory),
      subagents: runner.subagents,
      subagentSettings: settings,
      subagentDepth: runner.depth + 1,
    });
    const result = await child.send(
      request.prompt,
      request.abortSignal === undefined ? {} : { signal: request.abortSignal },
    );
    const answer =
      result.text.length > settings.maxAnswerChars ? result.text.slice(0, settings.maxAnswerChars) : result.text;
    return {
      status: result.status,
      agent: request.agent,
      session_id: childId,
      answer,
      answer_chars: result.text.length,
      truncated: answer.length < result.text.length,
      ...(result.reason === undefined ? {} : { reason: result.reason }),
    };
  });
}

function childMemory(
  definition: SubagentDefinition,
  parentMemory: TaskRunnerOptions["parentMemory"],
): AgentSessionOptions["memory"] {
  if (parentMemory === false || definition.memory === false) return false;
  const readOnly =
    parentMemory.readOnly === true || (typeof definition.memory === "object" && definition.memory.readOnly === true);
  return { root: parentMemory.root, readOnly };
}
