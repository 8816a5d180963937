/**
 * Runs one lookup task in one configuration through the real session engine
 * (`createAgentSession` over a real store, memory on), driven by the scripted agent, and measures
 * what the transcript and the requests show: the answer, the rollovers, the document reads that
 * repeat an earlier read, and the tokens spent on continuity.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { tool } from "ai";
import { z } from "zod";
import { countTokens } from "../../src/core/budget/token-count.js";
import { renderRowText, toolNameOf } from "../../src/core/row-text.js";
import { CONTINUE_TEXT } from "../../src/core/rollover/rollover-rows.js";
import { createAgentSession } from "../../src/session/create-agent-session.js";
import { CompactionError } from "../../src/session/errors.js";
import type { ContinuityOptions, SessionBudgetOptions } from "../../src/session/session-types.js";
import { scriptedModel, type RecordedCall } from "../../src/session/test-support/scripted-model.js";
import type { AgentSession } from "../../src/session/create-agent-session.js";
import { deterministic } from "../../src/session/test-support/session-fixture.js";
import { readAllRows } from "../../src/session/test-support/session-invariants.js";
import type { HistoryStore } from "../../src/store/port.js";
import { decide, READ_TOOL, type RequestKind } from "./agent.js";
import { pageOutput } from "./corpus.js";
import { observeRequest } from "./observe.js";
import { isCorrect, type LookupTask } from "../../src/eval/continuity/lookup-tasks.js";

export interface Configuration {
  name: string;
  strategy: NonNullable<SessionBudgetOptions["strategy"]>;
  continuity: ContinuityOptions;
}

export interface TaskRun {
  task: LookupTask;
  configuration: string;
  status: string;
  correct: boolean;
  /** Rollovers and compactions while the task's turn ran (none of them on send). */
  midTurn: number;
  /** The turn crossed a mid-turn rollover, or failed trying to compact at one. */
  crossed: boolean;
  notesFlushes: number;
  documentReads: number;
  /** `read_document` calls for a page the task had already read successfully. */
  redundantReads: number;
  /** `session_history` calls (finding the task, reading stored pages). */
  historyCalls: number;
  /** Tokens of the carried input and ledger in the `continue` rows (beyond the plain instruction). */
  carryTokens: number;
  /** Input and output tokens of the notes-flush steps. */
  flushTokens: number;
  /** Compaction: input and output tokens of the summary requests, plus the summary rows. */
  summaryTokens: number;
  /** Input and output tokens of every request of the task's send. */
  totalTokens: number;
  requests: number;
  /** Stopped at the request cap (the agent kept losing its progress). */
  stopped: boolean;
  /** Why the send failed or was blocked. */
  error?: string;
}

const MODEL_KEY = "mock:scripted";
const SESSION = "task";
/**
 * An agent that cannot keep its progress may read the same pages window after window; the run
 * stops it after this many requests per page the task must read (plus a margin) and counts the
 * task as not answered.
 */
const REQUESTS_PER_PAGE = 4;

const STOPPED = "Stopped: too many requests.";

/** Pages of a document up to the one its answer is on (essays), or all of them (conversations). */
function pagesNeeded(document: LookupTask["documents"][number], answer: string): number {
  if (document.kind === "dialogue") return document.pages.length;
  const index = document.pages.findIndex((text) => text.includes(answer));
  return index < 0 ? document.pages.length : index + 1;
}

function readDocumentTool(task: LookupTask) {
  const byId = new Map(task.documents.map((document) => [document.id, document]));
  return tool({
    description: "Reads one page of a document. Pages are numbered from 1; the result says how many there are.",
    inputSchema: z.object({ document: z.string(), page: z.number().int() }),
    execute: async ({ document, page }) => {
      const found = byId.get(document);
      const text = found?.pages[page - 1];
      if (found === undefined || text === undefined) throw new Error(`No page ${page} of ${document}.`);
      return pageOutput({ documentId: document, page, pages: found.pages.length, text });
    },
  });
}

/** Optional hooks of a run: the model's identity, and every request as the model received it. */
export interface TaskRunHooks {
  /** The scripted model's provider and id (default `mock` / `scripted`). */
  model?: { provider: string; modelId: string };
  onRequest?: (
    call: RecordedCall,
    facts: { kind: RequestKind; phase: "filler" | "task"; outputTokens: number },
  ) => void;
  onSession?: (session: AgentSession) => void;
}

/**
 * @example const run = await runTask({ task, configuration, store, memoryRoot });
 */
export async function runTask({
  task,
  configuration,
  store,
  memoryRoot,
  hooks = {},
}: {
  task: LookupTask;
  configuration: Configuration;
  store: HistoryStore;
  memoryRoot: string;
  hooks?: TaskRunHooks;
}): Promise<TaskRun> {
  const usage = new Map<RequestKind, number>();
  let phase: "filler" | "task" = "filler";
  let requests = 0;
  const pagesToRead = task.documents.reduce(
    (sum, document) => sum + pagesNeeded(document, task.answers.get(document.id) ?? ""),
    0,
  );
  const maxRequests = REQUESTS_PER_PAGE * pagesToRead + 40;
  const { model } = scriptedModel({
    provider: hooks.model?.provider ?? "mock",
    modelId: hooks.model?.modelId ?? "scripted",
    script: (call) => {
      const { kind, step } =
        requests >= maxRequests
          ? { kind: "answer" as const, step: { text: STOPPED } }
          : decide(observeRequest(call.prompt));
      hooks.onRequest?.(call, { kind, phase, outputTokens: step.outputTokens ?? 10 });
      const inputTokens = Math.ceil(call.text.length / 3);
      if (phase === "task") {
        requests += 1;
        usage.set(kind, (usage.get(kind) ?? 0) + inputTokens + (step.outputTokens ?? 10));
      }
      return { ...step, inputTokens };
    },
  });
  const sessionId = `${SESSION}-${task.id}-${configuration.name}`;
  const session = createAgentSession({
    store,
    sessionId,
    model,
    system: "You are a research agent. Read documents with read_document and answer exactly.",
    tools: { [READ_TOOL]: readDocumentTool(task) },
    budget: { contextLimit: task.limit, strategy: configuration.strategy },
    memory: { root: memoryRoot },
    continuity: configuration.continuity,
    maxSteps: 1_000,
    maxTurnsPerSend: 500,
    logWarning: () => undefined,
    ...deterministic(configuration.name),
  });
  hooks.onSession?.(session);
  for (const filler of task.filler) {
    const result = await session.send(filler);
    if (result.status !== "completed")
      throw new Error(`filler send ${result.status}: ${result.reason ?? result.error?.message ?? ""}`);
  }
  const startSeq = (await store.activeWindow(sessionId)).lastSeq;
  phase = "task";
  const result = await session.send(task.text);
  const rows = (await readAllRows(store, sessionId)).filter((row) => row.seq > startSeq);

  const seen = new Set<string>();
  let documentReads = 0;
  let redundantReads = 0;
  let historyCalls = 0;
  let carryTokens = 0;
  let summaryRowTokens = 0;
  const plainContinue = countTokens(CONTINUE_TEXT, { model: MODEL_KEY });
  for (const row of rows) {
    if (row.meta?.type === "continue" && row.meta["carry"] !== undefined)
      carryTokens += countTokens(renderRowText(row), { model: MODEL_KEY }) - plainContinue;
    if (row.meta?.type === "compaction-summary")
      summaryRowTokens += countTokens(renderRowText(row), { model: MODEL_KEY });
    if (row.role !== "assistant") continue;
    for (const part of row.parts) {
      const name = toolNameOf(part);
      if (name === "session_history") historyCalls += 1;
      const fields = part as { state?: unknown; input?: { document?: string; page?: number } };
      if (name !== READ_TOOL || fields.state !== "output-available") continue;
      const input = fields.input ?? {};
      const key = `${input.document}#${input.page}`;
      documentReads += 1;
      if (seen.has(key)) redundantReads += 1;
      seen.add(key);
    }
  }
  const midTurn =
    result.rollovers.filter((rollover) => rollover.reason !== "on-send").length + result.compactions.length;
  return {
    task,
    configuration: configuration.name,
    status: result.status,
    correct: result.status === "completed" && isCorrect(task, result.text),
    midTurn,
    crossed: midTurn > 0 || CompactionError.isInstance(result.error),
    notesFlushes: rows.filter((row) => row.meta?.type === "notes-flush").length,
    documentReads,
    redundantReads,
    historyCalls,
    carryTokens,
    flushTokens: usage.get("flush") ?? 0,
    summaryTokens: (usage.get("summary") ?? 0) + summaryRowTokens,
    totalTokens: [...usage.values()].reduce((sum, value) => sum + value, 0),
    requests,
    stopped: result.text === STOPPED,
    ...(result.status === "completed" ? {} : { error: result.reason ?? result.error?.message ?? "" }),
  };
}

/** A scratch directory for one configuration's memory files. */
export function scratchDirectory(prefix: string): { directory: string; remove: () => void } {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { directory, remove: () => fs.rmSync(directory, { recursive: true, force: true }) };
}
