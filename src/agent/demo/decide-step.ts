/**
 * The demo model's policy: from one observed request, the next step — a tool call or an answer.
 * It explores a folder with the workspace tools, writes notes when the budget warning arrives,
 * continues from its pinned notes after a rollover, and answers a question about an early file by
 * searching and reading its session history. Nothing in an answer is fixed: it all comes from tool
 * results in the request.
 */
import { CONTEXT_NOTES_PATH } from "../../core/hot-memories/limits.js";
import { CONTINUE_TEXT } from "../../core/rollover/rollover-rows.js";
import { SESSION_HISTORY_TOOL_NAME } from "../../core/row-text.js";
import { TASK_TOOL_NAME } from "../../session/subagents/subagent-types.js";
import { BUDGET_WARNING_MARKER, DELEGATE_PATTERN, RECALL_PATTERN, TASK_PATTERN } from "./demo-prompts.js";
import {
  FILE_HEADER,
  parseNotes,
  renderNotes,
  summarizeFile,
  type ExplorerNotes,
  type FileNote,
} from "./explorer-notes.js";
import type { ObservedRequest, ObservedToolStep } from "./observe-request.js";

export interface DemoToolCall {
  toolName: string;
  input: Record<string, unknown>;
}

export type DemoStep = { kind: "text"; text: string } | { kind: "tool"; call: DemoToolCall };

const HELP_TEXT =
  "I am ctxwin's scripted demo model: I only follow two kinds of requests. " +
  'Ask me to "explore the folder … read up to 12 of them" and I read files with the workspace tools, keeping notes; ' +
  'ask "what exactly does line 7 of the first file you read say?" (or of a named file) and I look it up, in my session history if need be.';

/**
 * @example
 * const step = decideStep(observeRequest(options));
 * if (step.kind === "tool") console.log(step.call.toolName);
 */
export function decideStep(request: ObservedRequest): DemoStep {
  const notes = parseNotes(request.system);
  const lastUser = request.userTexts.at(-1) ?? "";
  // The request being answered: warnings and lead-ins interrupt it, they do not replace it.
  const current = request.userMessages.findLast((message) => !isSynthetic(message.text));
  const currentText = current?.text ?? "";
  const sinceCurrent = request.toolSteps.slice(current?.stepsBefore ?? 0);
  // After a rollover the request is "continue": what it continues is in the notes or the history.
  const recall =
    RECALL_PATTERN.exec(currentText) ??
    (currentText === CONTINUE_TEXT
      ? (RECALL_PATTERN.exec(notes.working ?? "") ?? interruptedQuestion(sinceCurrent))
      : null);
  // The budget warning, or the notes-flush step just before a rollover: write down everything so far.
  const asksForNotes = lastUser.includes(BUDGET_WARNING_MARKER) || NOTES_FLUSH.test(lastUser);
  if (
    asksForNotes &&
    request.toolNames.includes("memory") &&
    !request.sinceLastUser.some((step) => step.toolName === "memory")
  ) {
    const working =
      recall !== null
        ? recall.input
        : TASK_PATTERN.test(currentText) || currentText === CONTINUE_TEXT || currentText === ""
          ? notes.working
          : currentText;
    return {
      kind: "tool",
      call: {
        toolName: "memory",
        input: {
          command: "create",
          path: CONTEXT_NOTES_PATH,
          file_text: renderNotes({ ...progressOf(request, notes), working }),
          overwrite: true,
        },
      },
    };
  }
  const delegation = DELEGATE_PATTERN.exec(currentText) ?? carriedDelegation(currentText);
  if (delegation !== null)
    return delegate({
      agent: delegation[1]!,
      prompt: delegation[2]!,
      steps: sinceCurrent,
      finishedItem: finishedTaskItem(currentText),
    });
  if (recall !== null)
    return answerRecall(request, notes, { line: Number(recall[1]), file: recall[2]!, steps: sinceCurrent });
  const resumed = resumeAfterRollover(request, notes, { currentText, steps: sinceCurrent });
  if (resumed !== undefined) return resumed;
  // Rolled over without a chance to write notes: the task and the files read are only in the history.
  if (
    currentText === CONTINUE_TEXT &&
    progressOf(request, notes).task === undefined &&
    historyListing(request) === undefined
  )
    return listHistory();
  return explore(request, notes);
}

/** Everything known about the exploration: the notes, plus what this window read and listed. */
function progressOf(request: ObservedRequest, notes: ExplorerNotes): ExplorerNotes & { target: number } {
  const earlier = historyListing(request);
  const taskText =
    [...request.userTexts].reverse().find((text) => TASK_PATTERN.test(text)) ?? notes.task ?? earlier?.task;
  const target = Number(TASK_PATTERN.exec(taskText ?? "")?.[1] ?? 0);
  const read: FileNote[] = [...notes.read];
  for (const note of [
    ...(earlier?.read ?? []),
    ...windowListingReads(request),
    ...ledgerReads(request),
    ...readInWindow(request),
  ])
    if (!read.some((known) => known.path === note.path)) read.push(note);
  const isRead = (path: string) => read.some((note) => note.path === path);
  const listings = listingsInWindow(request);
  const listed = new Set([...notes.listed, ...listings.map((listing) => listing.folder)]);
  const files = unique([...notes.next, ...listings.flatMap((listing) => listing.files)]).filter(
    (path) => !isRead(path),
  );
  const folders = unique([...notes.folders, ...listings.flatMap((listing) => listing.folders)]).filter(
    (folder) => !listed.has(folder),
  );
  return {
    task: taskText,
    read,
    next: rankPaths(files, fileRank).slice(0, Math.max(0, target - read.length)),
    folders: rankPaths(folders, folderRank),
    listed: [...listed],
    target,
  };
}

/**
 * A rollover in the middle of a turn leaves only "continue" in the new window. When the exploration
 * is already done, the interrupted request must have been something else: look at the last items
 * of the previous window to find it.
 */
function resumeAfterRollover(
  request: ObservedRequest,
  notes: ExplorerNotes,
  { currentText, steps }: { currentText: string; steps: ObservedToolStep[] },
): DemoStep | undefined {
  const progress = progressOf(request, notes);
  if (progress.task === undefined) return undefined;
  const leadIn = request.userTexts.find((text) => LEAD_IN.test(text));
  const previousWindow = leadIn === undefined ? undefined : /the one just before is (w:\d+)/.exec(leadIn)?.[1];
  if (previousWindow === undefined || currentText !== CONTINUE_TEXT) return undefined;
  // Notes miss what the previous window did when it ended without a warning; a finished task
  // means the interrupted request was something else. Either way, look at that window.
  const notesAreStale = leadIn!.includes("without a chance to update");
  if (!notesAreStale && progress.read.length < progress.target) return undefined;
  if (
    steps.some(
      (step) =>
        step.toolName === SESSION_HISTORY_TOOL_NAME &&
        step.input["action"] === "list_items" &&
        step.input["window_id"] === previousWindow,
    )
  )
    return undefined;
  return {
    kind: "tool",
    call: {
      toolName: SESSION_HISTORY_TOOL_NAME,
      input: { action: "list_items", window_id: previousWindow, limit: 50 },
    },
  };
}

/** Files read according to `list_items` results of single windows in this request. */
function windowListingReads(request: ObservedRequest): FileNote[] {
  const reads: FileNote[] = [];
  for (const step of request.toolSteps) {
    if (
      step.toolName !== SESSION_HISTORY_TOOL_NAME ||
      step.input["action"] !== "list_items" ||
      step.input["window_id"] === undefined
    )
      continue;
    const items = resultField(step, "items");
    if (!Array.isArray(items)) continue;
    for (const item of items as Array<{ preview?: string }>) {
      const match = EARLIER_READ.exec(item.preview ?? "");
      if (match !== null)
        reads.push({
          path: match[2]!,
          lines: Number(match[3]),
          summary: "(read in the previous window, after the notes were written)",
        });
    }
  }
  return reads;
}

function listHistory(): DemoStep {
  return { kind: "tool", call: { toolName: SESSION_HISTORY_TOOL_NAME, input: { action: "list_items", limit: 50 } } };
}

const EARLIER_READ = /read_file\(\{"path":"(.+?)"[^)]*\) → File: (.+?) · lines \d+[–-]\d+ of (\d+)/;

/** The task and the files read, from a `list_items` over the whole history (oldest first) in this window. */
function historyListing(request: ObservedRequest): { task: string | undefined; read: FileNote[] } | undefined {
  const listing = request.toolSteps.findLast(
    (step) =>
      step.toolName === SESSION_HISTORY_TOOL_NAME &&
      step.input["action"] === "list_items" &&
      step.input["window_id"] === undefined,
  );
  const items = listing === undefined ? undefined : resultField(listing, "items");
  if (!Array.isArray(items)) return undefined;
  let task: string | undefined;
  const read: FileNote[] = [];
  for (const item of items as Array<{ role?: string; preview?: string }>) {
    const preview = item.preview ?? "";
    if (item.role === "user" && task === undefined && TASK_PATTERN.test(preview)) task = preview;
    const match = EARLIER_READ.exec(preview);
    if (match !== null && !read.some((note) => note.path === match[2]))
      read.push({
        path: match[2]!,
        lines: Number(match[3]),
        summary: "(read in an earlier window; no notes were saved)",
      });
  }
  return { task, read };
}

const LEAD_IN = /^\[Context window w:\d+ begins\.\]/;
/** The notes-flush instruction (ADR 0024): the window ends after this one memory-only step. */
const NOTES_FLUSH = /^\[Context window w:\d+ rolls over after this step\.\]/;

function isSynthetic(text: string): boolean {
  return text.includes(BUDGET_WARNING_MARKER) || LEAD_IN.test(text) || NOTES_FLUSH.test(text);
}

/** The question found by `resumeAfterRollover` in the previous window's items. */
function interruptedQuestion(steps: ObservedToolStep[]): RegExpExecArray | null {
  const listing = steps.findLast(
    (step) => step.toolName === SESSION_HISTORY_TOOL_NAME && step.input["action"] === "list_items",
  );
  const items = listing === undefined ? undefined : resultField(listing, "items");
  if (!Array.isArray(items)) return null;
  for (const item of [...(items as Array<{ role?: string; preview?: string }>)].reverse()) {
    if (item.role !== "user" || typeof item.preview !== "string") continue;
    const match = RECALL_PATTERN.exec(item.preview);
    if (match !== null) return match;
  }
  return null;
}

function explore(request: ObservedRequest, notes: ExplorerNotes): DemoStep {
  const progress = progressOf(request, notes);
  if (progress.task === undefined || progress.target === 0) return { kind: "text", text: HELP_TEXT };
  if (progress.read.length >= progress.target) return { kind: "text", text: finalReport(progress) };
  if (!progress.listed.includes(".")) return listFolder(".");
  const file = progress.next[0];
  const folder = progress.folders[0];
  if (folder !== undefined && (file === undefined || folderRank(folder) < fileRank(file))) return listFolder(folder);
  if (file !== undefined) return { kind: "tool", call: { toolName: "read_file", input: { path: file } } };
  return { kind: "text", text: finalReport(progress) };
}

function listFolder(folder: string): DemoStep {
  return { kind: "tool", call: { toolName: "list_files", input: { path: folder, recursive: false } } };
}

function finalReport({ read }: ExplorerNotes): string {
  const lines = read.map((note, index) =>
    note.summary === ""
      ? `${index + 1}. ${note.path}`
      : `${index + 1}. ${note.path} (${note.lines} lines): ${note.summary}`,
  );
  return [`I read ${read.length} files. What each one is for:`, ...lines].join("\n");
}

const LEDGER_READ = /^- item (\d+): read_file (\{.*?\}) → finished$/gm;

/**
 * Files the carried ledger of a continued turn lists as read (ADR 0023): their results are in the
 * previous window, so they are not read again, even when the notes could not be updated in time.
 */
function ledgerReads(request: ObservedRequest): FileNote[] {
  const reads: FileNote[] = [];
  for (const text of request.userTexts) {
    for (const match of text.matchAll(LEDGER_READ)) {
      const input = safeParse(match[2]!);
      const path = typeof input === "object" && input !== null ? (input as Record<string, unknown>)["path"] : undefined;
      if (typeof path === "string") reads.push({ path, lines: 0, summary: "" });
    }
  }
  return reads;
}

/** The files `read_file` returned in this window, in order. */
function readInWindow(request: ObservedRequest): FileNote[] {
  const notes: FileNote[] = [];
  for (const step of request.toolSteps) {
    if (step.toolName !== "read_file") continue;
    const header = FILE_HEADER.exec(step.resultText);
    if (header === null) continue;
    const content = step.resultText.slice(header.index + header[0].length + 1);
    notes.push({ path: header[1]!, lines: Number(header[4]), summary: summarizeFile(content) });
  }
  return notes;
}

const FILE_ENTRY = /^(\S.*?) \(([\d.,]+ ?[KMG]?i?B|\d+ bytes?)\)$/;

/** The `list_files` results of this window: which folder, its files and sub-folders. */
function listingsInWindow(request: ObservedRequest): Array<{ folder: string; files: string[]; folders: string[] }> {
  return request.toolSteps
    .filter((step) => step.toolName === "list_files" && step.resultText !== "" && !step.resultText.startsWith("Error"))
    .map((step) => {
      const lines = step.resultText.split("\n").map((line) => line.trim());
      const files = lines
        .map((line) => FILE_ENTRY.exec(line)?.[1])
        .filter((entry): entry is string => entry !== undefined);
      const folders = lines.filter((line) => /^[^\s[(].*\/$/.test(line)).map((line) => line.slice(0, -1));
      return { folder: normalizeFolder(String(step.input["path"] ?? ".")), files, folders };
    });
}

function normalizeFolder(folder: string): string {
  const trimmed = folder.replace(/^\.\//, "").replace(/\/+$/, "");
  return trimmed === "" ? "." : trimmed;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function rankPaths(paths: string[], rank: (path: string) => number): string[] {
  return paths
    .map((path, order) => ({ path, order, rank: rank(path) }))
    .filter((entry) => entry.rank < 9)
    .sort((left, right) => left.rank - right.rank || left.order - right.order)
    .map((entry) => entry.path);
}

/** Documentation first, then manifests, then code; generated, binary and lock files never. */
function fileRank(path: string): number {
  const name = path.split("/").at(-1)!.toLowerCase();
  const depth = path.split("/").length - 1;
  if (
    /\.(map|lock|png|jpe?g|gif|ico|svg|woff2?|ttf|zip|gz|tgz|db|sqlite|wasm|pdf|bin|exe)$/.test(name) ||
    name === "package-lock.json" ||
    name.endsWith(".d.ts")
  )
    return 9;
  if (name.startsWith("readme")) return 0;
  if (/\.(md|txt|rst|adoc)$/.test(name)) return 1 + Math.min(2, depth);
  if (/^(package\.json|pyproject\.toml|cargo\.toml|go\.mod|makefile|dockerfile)$/.test(name)) return 4;
  return 5 + Math.min(3, depth);
}

/** Where documentation lives comes first; build output last. */
function folderRank(folder: string): number {
  const name = folder.split("/").at(-1)!.toLowerCase();
  if (name.startsWith(".") || /^(node_modules|coverage|target|out|build|\.next|vendor)$/.test(name)) return 9;
  if (/^(docs?|documentation|guides?|adr)$/.test(name)) return 1.5;
  if (/^(src|lib|app|packages?|cmd|internal)$/.test(name)) return 5.5;
  if (name === "dist") return 8.5;
  return 6.5;
}

function answerRecall(
  request: ObservedRequest,
  notes: ExplorerNotes,
  question: { line: number; file: string; steps: ObservedToolStep[] },
): DemoStep {
  const file = /^the first file/i.test(question.file)
    ? (notes.read[0]?.path ?? historyListing(request)?.read[0]?.path ?? readInWindow(request)[0]?.path)
    : question.file;
  if (file === undefined && historyListing(request) === undefined) return listHistory();
  if (file === undefined)
    return {
      kind: "text",
      text: "I have no record of which file I read first: my notes are empty and this window holds no file.",
    };
  const inWindow = request.toolSteps.find(
    (step) => step.toolName === "read_file" && FILE_HEADER.exec(step.resultText)?.[1] === file,
  );
  if (inWindow !== undefined) {
    const line = lineOf(inWindow.resultText, question.line);
    if (line !== undefined)
      return { kind: "text", text: quoteAnswer({ file, question, line, how: "It is still in my context window." }) };
  }
  const history = question.steps.filter((step) => step.toolName === SESSION_HISTORY_TOOL_NAME);
  const read = history.findLast((step) => step.input["action"] === "read_item");
  if (read !== undefined) {
    const text = typeof resultField(read, "text") === "string" ? (resultField(read, "text") as string) : "";
    const line = lineOf(text, question.line);
    const session = read.input["session_id"];
    const how =
      typeof session === "string"
        ? `It is not in my context, so I found it with ${SESSION_HISTORY_TOOL_NAME}: search, ` +
          `then read_item ${String(read.input["item_id"])} of session ${session}.`
        : `It is no longer in my context, so I found it with ${SESSION_HISTORY_TOOL_NAME}: search, then read_item ${String(read.input["item_id"])}.`;
    if (line !== undefined) return { kind: "text", text: quoteAnswer({ file, question, line, how }) };
    return {
      kind: "text",
      text: `I read item ${String(read.input["item_id"])} of my history, but it does not show line ${question.line} of ${file}.`,
    };
  }
  const search = history.findLast((step) => step.input["action"] === "search");
  if (search !== undefined) {
    const hits = resultField(search, "hits");
    const earliest = Array.isArray(hits)
      ? (hits as SearchHit[]).reduce<SearchHit | undefined>(
          (best, hit) => (best === undefined || Number(hit.item_id) < Number(best.item_id) ? hit : best),
          undefined,
        )
      : undefined;
    if (earliest === undefined)
      return {
        kind: "text",
        text: `My session history has no read of ${file}, so I cannot quote its line ${question.line}.`,
      };
    // A page from just before the match: the header, then enough lines for the question.
    const offset = Math.max(0, (earliest.snippet_offset_chars ?? 0) - 200);
    // A hit in a sub-agent's transcript names its session: the page is read from there.
    const session = earliest.session_id === undefined ? {} : { session_id: earliest.session_id };
    return {
      kind: "tool",
      call: {
        toolName: SESSION_HISTORY_TOOL_NAME,
        input: {
          action: "read_item",
          item_id: earliest.item_id,
          ...session,
          offset_chars: offset,
          limit_chars: Math.min(16_000, 240 * (question.line + 4)),
        },
      },
    };
  }
  return {
    kind: "tool",
    call: {
      toolName: SESSION_HISTORY_TOOL_NAME,
      input: { action: "search", query: `File: ${file} · lines 1`, mode: "literal" },
    },
  };
}

/** Hands the task to the sub-agent once (ADR 0060), then reports its answer and where its transcript is. */
function delegate({
  agent,
  prompt,
  steps,
  finishedItem,
}: {
  agent: string;
  prompt: string;
  steps: ObservedToolStep[];
  finishedItem: string | undefined;
}): DemoStep {
  const done = steps.findLast((step) => step.toolName === TASK_TOOL_NAME);
  // A rollover stopped the turn after the task: the carried ledger says it finished; it is not run again.
  if (done === undefined && finishedItem !== undefined) {
    return {
      kind: "text",
      text: `The ${agent} sub-agent's task finished before my context rolled over (item ${finishedItem}); its transcript is in its own session.`,
    };
  }
  if (done === undefined) return { kind: "tool", call: { toolName: TASK_TOOL_NAME, input: { agent, prompt } } };
  const status = resultField(done, "status");
  const answer = resultField(done, "answer");
  const firstLine = typeof answer === "string" ? (answer.split("\n")[0] ?? "") : "";
  return {
    kind: "text",
    text: `The ${agent} sub-agent's task ended ${String(status)} in its own session ${String(resultField(done, "session_id"))}: ${firstLine}`,
  };
}

const CARRIED_DELEGATION = /<carried_user_input[^>]*>\n(?=Delegate to the )([\s\S]*?)\n<\/carried_user_input>/;
const FINISHED_TASK = /^- item (\d+): task \{.*\} → finished$/m;

/** A delegation carried into a new window by the `continue` row of the turn a rollover stopped (ADR 0023). */
function carriedDelegation(text: string): RegExpExecArray | null {
  const carried = CARRIED_DELEGATION.exec(text);
  return carried === null ? null : DELEGATE_PATTERN.exec(carried[1]!);
}

function finishedTaskItem(text: string): string | undefined {
  return FINISHED_TASK.exec(text)?.[1];
}

function quoteAnswer({
  file,
  question,
  line,
  how,
}: {
  file: string;
  question: { line: number; file: string };
  line: string;
  how: string;
}): string {
  const which = /^the first file/i.test(question.file) ? ` (the first file I read)` : "";
  return `Line ${question.line} of ${file}${which} says: "${line}"\n${how}`;
}

/** Line `number` of the file whose `read_file` header appears in `text`. */
function lineOf(text: string, number: number): string | undefined {
  const header = FILE_HEADER.exec(text);
  if (header === null) return undefined;
  const first = Number(header[2]);
  const last = Number(header[3]);
  if (number < first || number > last) return undefined;
  const lines = text.slice(header.index + header[0].length + 1).split("\n");
  return lines[number - first];
}

interface SearchHit {
  item_id: string;
  snippet_offset_chars?: number;
  session_id?: string;
}

function resultField(step: ObservedToolStep, field: string): unknown {
  const value = step.resultJson ?? safeParse(step.resultText);
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[field] : undefined;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
