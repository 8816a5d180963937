/**
 * Runs the offline demo: a workspace agent on the built-in scripted model explores a folder under a
 * small context limit (warnings, notes, rollovers), then answers a question about the first file it
 * read, which by then only its session history holds. Returns the report; progress goes to
 * `onEvent` as it happens.
 */
import path from "node:path";
import { createDemoModel } from "../../agent/demo/demo-model.js";
import { explorationTask, recallQuestion } from "../../agent/demo/demo-prompts.js";
import { DEMO_THRESHOLD, demoTuning } from "../../agent/demo/demo-tuning.js";
import { SESSION_HISTORY_TOOL_NAME } from "../../core/row-text.js";
import type { RowPart } from "../../core/row.js";
import { readCarry } from "../../core/rollover/turn-carry.js";
import { parseWindowId } from "../../core/windows.js";
import { createDemoTally, succeededCalls } from "./demo-tally.js";
import { demoAgent, type DemoFace } from "./demo-face.js";
import type { SessionUsage } from "../../session/session-types.js";
import { openStore } from "../../store/open-store.js";
import { readTimeline } from "../../store/read-timeline.js";
import { DEFAULT_OUTPUT_RESERVE } from "../../core/budget/step-budget.js";
import type { Timeline } from "../../core/timeline/timeline-types.js";
import { describeStoreOptions, storeOptionsOf } from "../store-flag.js";
import { defaultMemoryRoot } from "../../tools/memory/layout.js";
import { demoSubagents, pickDetail, runSubagentPhase, subagentFolder, type SubagentReport } from "./subagent-phase.js";

export interface DemoOptions {
  /** Where `.ctxwin/` goes. */
  directory: string;
  /** `--store`: a postgres:// URL or a SQLite file instead of `<directory>/.ctxwin/ctxwin.db`. */
  store?: string | undefined;
  /** The folder the agent explores. */
  folder: string;
  contextLimit: number;
  /** Files the agent is asked to read. */
  files: number;
  /** Pause before each model step and streamed word, so a person can follow (default 0). */
  paceMilliseconds?: number;
  sessionId?: string;
  /** The engine's face the demo runs on: the session API (default), or the AI SDK `Agent` read as `useChat` would. */
  face?: DemoFace;
  /** `--subagents`: after the recall, a phase with a sub-agent that rolls over in its own session (subagent-phase.ts). */
  subagents?: boolean;
  now?: () => Date;
  onEvent?: (event: DemoEvent) => void;
}

export type DemoEvent =
  | { type: "start"; sessionId: string; folder: string; database: string; usage: SessionUsage }
  | { type: "tool"; toolName: string; summary: string }
  | { type: "usage"; usage: SessionUsage }
  | { type: "warning"; windowId: string; percent: number }
  | { type: "notes"; path: string; bytes: number }
  | { type: "notes-flush"; windowId: string }
  | {
      type: "rollover";
      windowNumber: number;
      windowId: string;
      reason: string;
      percent: number;
      flushOpportunity: boolean;
    }
  | { type: "carried"; windowId: string; carried: CarriedTask }
  | { type: "re-read"; path: string }
  | { type: "recovery"; summary: string }
  | { type: "delegated"; agent: string; folder: string }
  | { type: "subagent"; report: Pick<SubagentReport, "sessionId" | "windows" | "rollovers" | "filesRead"> }
  | { type: "question"; text: string }
  | { type: "answer"; text: string };

/** The task a rollover carried into its new window (ADR 0023), as stored in the `continue` row. */
export interface CarriedTask {
  windowId: string;
  /** Item id of the user input that started the turn. */
  itemId: string;
  /** The carried input's first line. */
  input: string;
  /** Tool calls in the carried ledger (any outcome), left-out ones included. */
  calls: number;
}

export interface DemoReport {
  sessionId: string;
  database: string;
  folder: string;
  contextLimit: number;
  threshold: number | null;
  hardCeiling: number | null;
  windows: number;
  rows: number;
  requests: number;
  /** The largest request by the scripted model's own count. */
  peakRequestTokens: number;
  /** The largest request by ctxwin's estimate (calibrated; the figure checked against the hard ceiling). */
  peakEstimatedTokens: number;
  /** Distinct files read successfully (a refused read is not a read). */
  filesRead: number;
  /** Successful reads of a file already read in an earlier window. */
  filesReReadAfterRollover: number;
  /** Notes-flush steps given before mid-turn rollovers (ADR 0024). */
  notesFlushes: number;
  /** What each rollover that stopped a turn carried into its new window. */
  carried: CarriedTask[];
  warnings: number;
  notesWritten: number;
  rollovers: Array<{ windowId: string; reason: string; percent: number; flushOpportunity: boolean }>;
  recoveries: number;
  recovered: {
    firstFile: string | null;
    line: number | null;
    question: string | null;
    answer: string;
    expected: string | null;
    correct: boolean;
  };
  status: "completed" | "blocked" | "failed" | "interrupted";
  /** Why the run did not complete. */
  problem?: string;
  durationMilliseconds: number;
  inspect: string[];
  /** The session's context timeline, drawn at the end of the report (`ctxwin history usage`). */
  timeline: Timeline;
  /** `--subagents`: what the sub-agent did in its own session, and the parent's look into it. */
  subagent?: SubagentReport;
}

/**
 * @example
 * const report = await runDemo({ directory: process.cwd(), folder: packageRoot, contextLimit: 16_000, files: 32 });
 */
export async function runDemo({
  directory,
  store: storeUrl,
  folder,
  contextLimit,
  files,
  paceMilliseconds = 0,
  sessionId,
  face = "session",
  subagents = false,
  now = () => new Date(),
  onEvent = () => {},
}: DemoOptions): Promise<DemoReport> {
  const started = Date.now();
  const id = sessionId ?? demoSessionId(now());
  const storeOptions = storeOptionsOf({ store: storeUrl, directory });
  const store = openStore(storeOptions);
  const database = describeStoreOptions(storeOptions);
  let requests = 0;
  const tally = createDemoTally();
  const model = createDemoModel({
    stepDelayMilliseconds: paceMilliseconds,
    chunkDelayMilliseconds: Math.round(paceMilliseconds / 10),
    onRequest: ({ inputTokens }) => {
      requests += 1;
      tally.requestCounted(inputTokens);
    },
  });
  const defaults = demoTuning({ contextLimit });
  const tuning = { ...defaults, budget: { ...defaults.budget, threshold: DEMO_THRESHOLD } };
  const childFolder = subagents ? await subagentFolder(folder) : undefined;
  const agent = demoAgent(face, {
    store,
    sessionId: id,
    model,
    workspaceRoot: folder,
    memoryRoot: defaultMemoryRoot({ directory }),
    contextLimit,
    ...tuning,
    maxSteps: 60,
    maxTurnsPerSend: 60,
    logWarning: () => {},
    ...(childFolder === undefined
      ? {}
      : {
          sessionOptions: {
            subagents: demoSubagents({ root: childFolder.absolute, toolLimits: tuning.toolLimits }),
            subagentSettings: { maxAnswerChars: 1_200 },
          },
        }),
  });
  /** Sessions the parent's `read_item` calls named (a sub-agent's transcript). */
  const readSessions: string[] = [];
  const counts = { warnings: 0, notesWritten: 0, notesFlushes: 0, recoveries: 0, windows: 1 };
  const rollovers: DemoReport["rollovers"] = [];
  const carried: CarriedTask[] = [];
  const percentOf = (tokens: number, max: number) => Math.round((tokens / max) * 100);
  agent.on("budget-warning", (warning) => {
    counts.warnings += 1;
    onEvent({
      type: "warning",
      windowId: warning.windowId,
      percent: percentOf(warning.contextTokens, warning.maxTokens),
    });
  });
  agent.on("notes-flush", ({ windowId }) => {
    counts.notesFlushes += 1;
    onEvent({ type: "notes-flush", windowId });
  });
  agent.on("rollover", (rollover) => {
    counts.windows += 1;
    tally.windowOpened(rollover.windowId);
    const percent = percentOf(rollover.contextTokens, rollover.maxTokens);
    rollovers.push({
      windowId: rollover.windowId,
      reason: rollover.reason,
      percent,
      flushOpportunity: rollover.flushOpportunity,
    });
    onEvent({
      type: "rollover",
      windowNumber: counts.windows,
      windowId: rollover.windowId,
      reason: rollover.reason,
      percent,
      flushOpportunity: rollover.flushOpportunity,
    });
    reportUsage();
    readCarried(rollover.windowId);
  });
  agent.on("step-end", ({ row }) => {
    tally.stepStored(row);
    // Only calls that succeeded count: a refused read is not a file read, a refused write no notes.
    for (const { toolName, input } of succeededCalls(row.parts as RowPart[])) {
      if (toolName === "read_file" && tally.fileRead(String(input["path"])))
        onEvent({ type: "re-read", path: String(input["path"]) });
      if (toolName === "memory") {
        counts.notesWritten += 1;
        onEvent({
          type: "notes",
          path: String(input["path"]),
          bytes: Buffer.byteLength(String(input["file_text"] ?? "")),
        });
      } else if (toolName === SESSION_HISTORY_TOOL_NAME) {
        counts.recoveries += input["action"] === "read_item" ? 1 : 0;
        if (input["action"] === "read_item" && typeof input["session_id"] === "string")
          readSessions.push(input["session_id"]);
        onEvent({ type: "recovery", summary: recoverySummary(input) });
      } else {
        onEvent({
          type: "tool",
          toolName,
          summary: `${toolName} ${String(input["path"] ?? input["query"] ?? "")}`.trim(),
        });
      }
    }
  });
  // Usage events come from the session's listeners, which run synchronously: read the figures after.
  let usageRead: Promise<void> = Promise.resolve();
  const reportUsage = () => {
    usageRead = usageRead.then(async () => onEvent({ type: "usage", usage: await agent.usage() }));
  };
  agent.on("usage", reportUsage);
  // The `continue` row is the third of the rollover's one append: boundary, lead-in, continue.
  let carriedRead: Promise<void> = Promise.resolve();
  const readCarried = (windowId: string) => {
    carriedRead = carriedRead.then(async () => {
      const boundarySeq = parseWindowId(windowId);
      const row = boundarySeq === undefined ? undefined : await store.read(id, boundarySeq + 2);
      const carry = row?.meta?.type === "continue" ? readCarry(row.meta["carry"]) : undefined;
      if (carry?.input === undefined) return;
      const task: CarriedTask = {
        windowId,
        itemId: carry.input.itemId,
        input: carry.input.text.split("\n")[0] ?? "",
        calls: carry.ledger.length + carry.omittedCalls,
      };
      carried.push(task);
      onEvent({ type: "carried", windowId, carried: task });
    });
  };

  try {
    onEvent({ type: "start", sessionId: id, folder, database, usage: await agent.usage() });
    const exploration = await agent.send(explorationTask({ folderName: path.basename(folder), files }));
    let recovered: DemoReport["recovered"] = {
      firstFile: null,
      line: null,
      question: null,
      answer: exploration.text,
      expected: null,
      correct: false,
    };
    let status = exploration.status;
    let problem = exploration.reason ?? exploration.error?.message;
    const firstFile = tally.readOrder[0];
    if (exploration.status === "completed" && firstFile !== undefined) {
      const { line, text } = await pickDetail(path.join(folder, firstFile));
      const question = recallQuestion({ line });
      onEvent({ type: "question", text: question });
      const answer = await agent.send(question);
      status = answer.status;
      problem = answer.reason ?? answer.error?.message;
      onEvent({ type: "answer", text: answer.text });
      recovered = {
        firstFile,
        line,
        question,
        answer: answer.text,
        expected: text,
        correct: answer.text.includes(`"${text}"`),
      };
    }
    let subagent: SubagentReport | undefined;
    if (childFolder !== undefined && status === "completed") {
      const phase = await runSubagentPhase({
        store,
        sessionId: id,
        folder: childFolder,
        send: (text) => agent.send(text),
        childReads: () => readSessions,
        onEvent,
      });
      subagent = phase.report;
      status = phase.status as DemoReport["status"];
      problem = phase.problem;
    }
    await usageRead;
    await carriedRead;
    const usage = await agent.usage();
    const summary = await store.session(id);
    const timeline = await readTimeline({
      store,
      sessionId: id,
      settings: { strategy: "rollover", threshold: DEMO_THRESHOLD, outputReserve: DEFAULT_OUTPUT_RESERVE },
    });
    return {
      sessionId: id,
      database,
      folder,
      contextLimit,
      threshold: usage.threshold ?? null,
      hardCeiling: usage.hardCeiling ?? null,
      windows: summary?.windowCount ?? counts.windows,
      rows: summary?.lastSeq ?? 0,
      requests,
      peakRequestTokens: tally.peak.modelCount,
      peakEstimatedTokens: tally.peak.estimate,
      filesRead: tally.readOrder.length,
      filesReReadAfterRollover: tally.reReads.length,
      notesFlushes: counts.notesFlushes,
      carried,
      warnings: counts.warnings,
      notesWritten: counts.notesWritten,
      rollovers,
      recoveries: counts.recoveries,
      recovered,
      status,
      ...(status === "completed" || problem === undefined ? {} : { problem }),
      durationMilliseconds: Date.now() - started,
      inspect: inspectCommands({
        directory,
        store: storeUrl,
        sessionId: id,
        childSessionId: subagent?.sessionId ?? undefined,
      }),
      timeline,
      ...(subagent === undefined ? {} : { subagent }),
    };
  } finally {
    await store.close();
  }
}

function recoverySummary(input: Record<string, unknown>): string {
  if (input["action"] === "search") return `${SESSION_HISTORY_TOOL_NAME} search "${String(input["query"])}"`;
  if (input["action"] === "read_item") {
    const session = typeof input["session_id"] === "string" ? ` of session ${input["session_id"]}` : "";
    return `${SESSION_HISTORY_TOOL_NAME} read_item ${String(input["item_id"])}${session}`;
  }
  return `${SESSION_HISTORY_TOOL_NAME} ${String(input["action"])}`;
}

function demoSessionId(date: Date): string {
  const stamp = date.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `demo-${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}

function inspectCommands({
  directory,
  store,
  sessionId,
  childSessionId,
}: {
  directory: string;
  store: string | undefined;
  sessionId: string;
  childSessionId?: string | undefined;
}): string[] {
  const dirFlag =
    (path.resolve(directory) === process.cwd() ? "" : ` --dir ${JSON.stringify(directory)}`) +
    (store === undefined
      ? ""
      : ` --store ${JSON.stringify(describeStoreOptions(storeOptionsOf({ store, directory })))}`);
  return [
    `npx ctxwin history windows ${sessionId}${dirFlag}`,
    `npx ctxwin history usage ${sessionId}${dirFlag}`,
    `npx ctxwin history search ${sessionId} "File:"${dirFlag}`,
    `npx ctxwin history export ${sessionId} --format markdown${dirFlag}`,
    ...(childSessionId === undefined
      ? []
      : [`npx ctxwin history windows ${childSessionId}${dirFlag}   # the sub-agent's own session`]),
    `npx ctxwin serve${dirFlag}   # the same session in the browser`,
  ];
}
