/**
 * The sub-agent phase of `ctxwin demo --subagents` (ADR 0060): the parent hands an exploration of
 * a sub-folder to an `explorer` sub-agent with the `task` tool. The child runs as its own session
 * under the same small limit, so it warns, writes its own notes and rolls over on its own. Then
 * the parent is asked about a file only the child read, and finds it with `session_history` in
 * the child's transcript.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { delegationTask, explorationTask, subagentQuestion } from "../../agent/demo/demo-prompts.js";
import { WORKSPACE_AGENT_SYSTEM_PROMPT } from "../../agent/workspace-agent.js";
import type { RowPart } from "../../core/row.js";
import type { SubagentDefinition } from "../../session/subagents/subagent-types.js";
import type { HistoryStore } from "../../store/port.js";
import { workspaceTools } from "../../tools/workspace/workspace-tools.js";
import type { WorkspaceToolLimits } from "../../tools/workspace/limits.js";
import { succeededCalls } from "./demo-tally.js";
import { MAX_PAGE_LIMIT } from "../../store/options.js";

export const DEMO_SUBAGENT = "explorer";
/** Files the sub-agent is asked to read: enough to fill a 16k window and roll over once or twice. */
export const DEMO_SUBAGENT_FILES = 10;

export interface SubagentReport {
  agent: string;
  /** The folder the sub-agent explored, relative to the demo's folder ("." for the folder itself). */
  folder: string;
  sessionId: string | null;
  windows: number;
  /** Rollovers in the sub-agent's own session. */
  rollovers: number;
  filesRead: number;
  /** What the parent got back from the `task` call (its last answer line). */
  delegationAnswer: string;
  file: string | null;
  line: number | null;
  question: string | null;
  answer: string;
  expected: string | null;
  /** The parent read the child's transcript (`read_item` with the child's `session_id`). */
  readChildHistory: boolean;
  correct: boolean;
}

/**
 * The folder the sub-agent explores: `docs/` when there is one, else the first sub-folder with files, else the folder itself.
 *
 * @example await subagentFolder("/repo") // { absolute: "/repo/docs", name: "docs" }
 */
export async function subagentFolder(folder: string): Promise<{ absolute: string; name: string }> {
  const entries = await readdir(folder, { withFileTypes: true });
  const candidates = entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules")
    .map((entry) => entry.name)
    .sort();
  for (const name of candidates.includes("docs") ? ["docs", ...candidates] : candidates) {
    const files = (await readdir(path.join(folder, name), { withFileTypes: true })).filter((entry) => entry.isFile());
    if (files.length >= 2) return { absolute: path.join(folder, name), name };
  }
  return { absolute: folder, name: "." };
}

/**
 * @example subagents: demoSubagents({ root: "/repo/docs", toolLimits })
 */
export function demoSubagents({
  root,
  toolLimits,
}: {
  root: string;
  toolLimits: WorkspaceToolLimits;
}): Record<string, SubagentDefinition> {
  return {
    [DEMO_SUBAGENT]: {
      system: WORKSPACE_AGENT_SYSTEM_PROMPT,
      tools: workspaceTools({ root, limits: toolLimits }),
      description: "Explores a folder and reports what each file is for.",
    },
  };
}

export interface SubagentPhaseOptions {
  store: HistoryStore;
  sessionId: string;
  folder: { absolute: string; name: string };
  send: (
    text: string,
  ) => Promise<{ status: string; text: string; reason?: string | undefined; error?: Error | undefined }>;
  /** Session ids the parent's `read_item` calls named, in order (from its stored steps). */
  childReads: () => readonly string[];
  onEvent: (
    event:
      | { type: "question"; text: string }
      | { type: "answer"; text: string }
      | { type: "delegated"; agent: string; folder: string }
      | { type: "subagent"; report: Pick<SubagentReport, "sessionId" | "windows" | "rollovers" | "filesRead"> },
  ) => void;
}

/**
 * Runs the two sends of the phase; `status` is the last send's.
 *
 * @example const { report } = await runSubagentPhase({ store, sessionId, folder, send, childReads, onEvent });
 */
export async function runSubagentPhase({
  store,
  sessionId,
  folder,
  send,
  childReads,
  onEvent,
}: SubagentPhaseOptions): Promise<{ report: SubagentReport; status: string; problem?: string }> {
  onEvent({ type: "delegated", agent: DEMO_SUBAGENT, folder: folder.name });
  const delegated = await send(
    delegationTask({
      agent: DEMO_SUBAGENT,
      task: explorationTask({ folderName: folder.name, files: DEMO_SUBAGENT_FILES }),
    }),
  );
  const child = (await store.sessions({ parentSessionId: sessionId }))[0];
  const reads = child === undefined ? [] : await filesReadBy(store, child.sessionId);
  const windows = child === undefined ? [] : (await store.windows(child.sessionId, { limit: MAX_PAGE_LIMIT })).windows;
  const counts = {
    sessionId: child?.sessionId ?? null,
    windows: windows.length,
    rollovers: windows.filter((window) => window.kind === "rollover").length,
    filesRead: reads.length,
  };
  onEvent({ type: "subagent", report: counts });
  const report: SubagentReport = {
    agent: DEMO_SUBAGENT,
    folder: folder.name,
    ...counts,
    delegationAnswer: delegated.text,
    file: null,
    line: null,
    question: null,
    answer: "",
    expected: null,
    readChildHistory: false,
    correct: false,
  };
  const file = reads[0];
  if (delegated.status !== "completed" || file === undefined || child === undefined)
    return { report, status: delegated.status, ...problemOf(delegated) };

  const { line, text } = await pickDetail(path.join(folder.absolute, file));
  const question = subagentQuestion({ line, file });
  onEvent({ type: "question", text: question });
  const answer = await send(question);
  onEvent({ type: "answer", text: answer.text });
  const readChildHistory = childReads().includes(child.sessionId);
  return {
    report: {
      ...report,
      file,
      line,
      question,
      answer: answer.text,
      expected: text,
      readChildHistory,
      correct: readChildHistory && answer.text.includes(`"${text}"`),
    },
    status: answer.status,
    ...problemOf(answer),
  };
}

function problemOf(result: { reason?: string | undefined; error?: Error | undefined }): { problem?: string } {
  const problem = result.reason ?? result.error?.message;
  return problem === undefined ? {} : { problem };
}

/** Distinct files a session read successfully, in the order of their first read. */
async function filesReadBy(store: HistoryStore, sessionId: string): Promise<string[]> {
  const files: string[] = [];
  for (let afterSeq = 0; ;) {
    const page = await store.items(sessionId, { afterSeq, limit: MAX_PAGE_LIMIT });
    for (const row of page.rows) {
      for (const call of succeededCalls(row.parts as RowPart[])) {
        const file = String(call.input["path"]);
        if (call.toolName === "read_file" && !files.includes(file)) files.push(file);
      }
    }
    const last = page.rows.at(-1);
    if (!page.hasMore || last === undefined) return files;
    afterSeq = last.seq;
  }
}

/** A line of the file worth asking about: the longest of its first 40 lines (a real detail, not a heading). */
export async function pickDetail(file: string): Promise<{ line: number; text: string }> {
  const lines = (await readFile(file, "utf8")).split("\n").slice(0, 40);
  let best = { line: 1, text: lines[0] ?? "" };
  lines.forEach((text, index) => {
    if (index > 0 && text.trim().length > best.text.trim().length && text.length <= 200)
      best = { line: index + 1, text };
  });
  return best;
}
