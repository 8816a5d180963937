/**
 * The scripted eval model's policy (`ctxwin eval --model demo`): one step from one request, no
 * state between requests, like the demo model (docs/adr/0013). It acknowledges background,
 * works through a lookup task page by page, and answers a question with the line of the request
 * that shares the most words with it, after searching and reading its session history. It shows
 * the machinery end to end offline; its scores say nothing about a real model.
 */
import { CONTEXT_NOTES_PATH } from "../../core/hot-memories/limits.js";
import { isStopWord } from "../../core/stop-words.js";
import { ANSWER_FORMAT, TASK_MARKER, formatFinding } from "../continuity/lookup-tasks.js";
import { pageHits } from "../continuity/pages.js";
import { READ_DOCUMENT_TOOL } from "../suites/continuity.js";
import { ANSWER_INSTRUCTION, FEED_PREFIX, QUESTION_PREFIX } from "../suites/session-text.js";
import type { ObservedPrompt } from "./observe-prompt.js";

export type EvalStep =
  { kind: "text"; text: string } | { kind: "tool"; toolName: string; input: Record<string, unknown> };

const HISTORY_TOOL = "session_history";
const SUMMARY_REQUEST = "Write a summary of the conversation so far";
const NOTES_REQUESTS = ["[Context budget]", "rolls over after this step"];
const TASK_PATTERN = new RegExp(
  `${TASK_MARKER} \\S+\\. For each document below, .*? Documents: (.+?)\\. ${ANSWER_FORMAT.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
);
const PAGE_PATTERN = /Document (\S+), page (\d+) of (\d+):\n/g;
const LEDGER_LINE = new RegExp(`^- item (\\S+): ${READ_DOCUMENT_TOOL} (\\{.*\\})$`, "gm");
const QUESTION_PATTERN = new RegExp(
  `${QUESTION_PREFIX} .+?${ANSWER_INSTRUCTION.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
  "g",
);
/** Lines that are the session's own scaffolding, never an answer. */
const NOT_ANSWERS = [QUESTION_PREFIX, ANSWER_INSTRUCTION, HISTORY_TOOL, "{", "record of past messages"];

interface TaskDocument {
  id: string;
  word: string;
}

interface PageRecord {
  document: string;
  page: number;
  pages: number;
  text: string;
}

const text = (value: string): EvalStep => ({ kind: "text", text: value });

function findTask(observed: ObservedPrompt): TaskDocument[] | undefined {
  for (const candidate of [...observed.texts].reverse()) {
    const list = TASK_PATTERN.exec(candidate)?.[1];
    if (list === undefined) continue;
    return list.split("; ").flatMap((entry) => {
      const match = /^(\S+) "([^"]+)"$/.exec(entry.trim());
      return match === null ? [] : [{ id: match[1]!, word: match[2]! }];
    });
  }
  return undefined;
}

/** Every page the request shows (tool results, history reads, summaries), with its text. */
function pagesSeen(observed: ObservedPrompt): PageRecord[] {
  const records: PageRecord[] = [];
  for (const source of observed.texts) {
    const unescaped = source.includes("\\n") ? source.replace(/\\n/g, "\n").replace(/\\"/g, '"') : source;
    const matches = [...unescaped.matchAll(PAGE_PATTERN)];
    matches.forEach((match, index) => {
      const end = matches[index + 1]?.index ?? unescaped.length;
      records.push({
        document: match[1]!,
        page: Number(match[2]),
        pages: Number(match[3]),
        text: unescaped.slice(match.index + match[0].length, end),
      });
    });
  }
  return records;
}

/** The pages a carried ledger says were read (in an earlier window), by the item that holds each. */
function ledgerReads(observed: ObservedPrompt): Array<{ itemId: string; document: string; page: number }> {
  return observed.userTexts.flatMap((value) =>
    [...value.matchAll(LEDGER_LINE)].flatMap((match) => {
      const input = JSON.parse(match[2]!) as { document?: unknown; page?: unknown };
      return typeof input.document === "string" && typeof input.page === "number"
        ? [{ itemId: match[1]!, document: input.document, page: input.page }]
        : [];
    }),
  );
}

/** What the notes (pinned, or a compaction summary) say: findings by document, the last page read of each. */
function notesOf(observed: ObservedPrompt): { findings: Map<string, string>; lastPage: Map<string, number> } {
  const findings = new Map<string, string>();
  const lastPage = new Map<string, number>();
  const notes = [observed.system, ...observed.texts.filter((value) => value.startsWith(NOTES_TITLE))].join("\n");
  for (const match of notes.matchAll(/^(\S+) => (.*)$/gm)) findings.set(match[1]!, match[2]!);
  for (const match of notes.matchAll(/^(\S+) read through page (\d+)$/gm)) lastPage.set(match[1]!, Number(match[2]));
  return { findings, lastPage };
}

/**
 * Where the task stands: the answer lines of the documents done, and the next step. Each document
 * is read page by page until its word. A page the ledger names but the request does not show is
 * read back from the history first; the notes keep findings and progress across windows.
 */
function lookupState(
  task: readonly TaskDocument[],
  observed: ObservedPrompt,
): { lines: string[]; progress: string[]; next?: EvalStep } {
  const records = pagesSeen(observed);
  const ledger = ledgerReads(observed);
  const notes = notesOf(observed);
  const lines: string[] = [];
  for (const document of task) {
    const noted = notes.findings.get(document.id);
    if (noted !== undefined) {
      lines.push(`${document.id} => ${noted}`);
      continue;
    }
    const read = records
      .filter((record) => record.document === document.id)
      .sort((left, right) => left.page - right.page);
    const hit = read
      .map((record) => pageHits({ kind: "essay", word: document.word, text: record.text }))
      .find((hits) => hits.length > 0);
    const last = read.at(-1);
    if (hit !== undefined || (last !== undefined && last.page >= last.pages)) {
      lines.push(`${document.id} => ${formatFinding("essay", hit ?? [])}`);
      continue;
    }
    const notedPage = notes.lastPage.get(document.id) ?? 0;
    const carried = ledger
      .filter((entry) => entry.document === document.id && entry.page > notedPage)
      .sort((left, right) => left.page - right.page)
      .at(-1);
    const lastPage = Math.max(last?.page ?? 0, notedPage);
    const progress = lastPage === 0 ? [] : [`${document.id} read through page ${lastPage}`];
    if (carried !== undefined && carried.page > lastPage)
      return {
        lines,
        progress,
        next: { kind: "tool", toolName: HISTORY_TOOL, input: { action: "read_item", item_id: carried.itemId } },
      };
    return {
      lines,
      progress,
      next: { kind: "tool", toolName: READ_DOCUMENT_TOOL, input: { document: document.id, page: lastPage + 1 } },
    };
  }
  return { lines, progress: [] };
}

function lookupStep(task: readonly TaskDocument[], observed: ObservedPrompt): EvalStep {
  const state = lookupState(task, observed);
  return state.next ?? text(state.lines.join("\n"));
}

const NOTES_TITLE = "# Lookup task progress";

function notesText(task: readonly TaskDocument[], observed: ObservedPrompt): string {
  const state = lookupState(task, observed);
  return [NOTES_TITLE, ...state.lines, ...state.progress, ""].join("\n");
}

/** Asked to update the notes with a task in view: write down the findings and the progress. */
function notesStep(task: readonly TaskDocument[], observed: ObservedPrompt): EvalStep {
  const fileText = notesText(task, observed);
  return {
    kind: "tool",
    toolName: "memory",
    input: { command: "create", path: CONTEXT_NOTES_PATH, file_text: fileText, overwrite: true },
  };
}

function contentWords(value: string): string[] {
  return [...new Set((value.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []).filter((word) => !isStopWord(word)))];
}

/** The line of the request (outside the question itself) that shares the most words with it. */
function bestLine(question: string, observed: ObservedPrompt): string {
  const words = contentWords(question.slice(QUESTION_PREFIX.length));
  let best = { line: "", overlap: 0 };
  for (const source of observed.texts) {
    const unescaped = source.replace(/\\n/g, "\n").replace(/\\"/g, '"');
    for (const line of unescaped.split(/\n|(?<=[.!?])\s+/)) {
      if (line.length > 400 || NOT_ANSWERS.some((marker) => line.includes(marker))) continue;
      const lineWords = new Set(contentWords(line));
      const overlap = words.filter((word) => lineWords.has(word)).length;
      if (overlap > best.overlap) best = { line, overlap };
    }
  }
  return best.line.replace(/^\[[^\]]+\] [^:]+: /, "").trim() || "I do not know.";
}

function questionStep(question: string, observed: ObservedPrompt): EvalStep {
  const history = observed.stepsSinceUser.filter((step) => step.toolName === HISTORY_TOOL);
  const searched = history.find((step) => (step.input as { action?: string }).action === "search");
  if (searched === undefined)
    return {
      kind: "tool",
      toolName: HISTORY_TOOL,
      input: {
        action: "search",
        query: contentWords(question.slice(QUESTION_PREFIX.length)).join(" "),
        mode: "ranked",
      },
    };
  const itemId = /"item_id":"([^"]+)"/.exec(searched.output ?? "")?.[1];
  const read = history.some((step) => (step.input as { action?: string }).action === "read_item");
  if (itemId !== undefined && !read)
    return { kind: "tool", toolName: HISTORY_TOOL, input: { action: "read_item", item_id: itemId } };
  return text(bestLine(question, observed));
}

/**
 * @example const step = decideEvalStep(observePrompt(options.prompt), ["session_history"]);
 */
export function decideEvalStep(observed: ObservedPrompt, toolNames: readonly string[]): EvalStep {
  const last = observed.lastUserText;
  const fresh = observed.stepsSinceUser.length === 0;
  if (fresh && last.startsWith(FEED_PREFIX)) return text("Noted.");
  if (last.startsWith(SUMMARY_REQUEST)) {
    const task = findTask(observed);
    if (task === undefined)
      return text("The user shared background messages and asked questions; nothing else to keep.");
    const taskText = TASK_PATTERN.exec(observed.texts.find((value) => TASK_PATTERN.test(value)) ?? "")?.[0] ?? "";
    return text(`${notesText(task, observed)}\nTask: ${taskText}`);
  }
  if (fresh && NOTES_REQUESTS.some((marker) => last.includes(marker))) {
    const task = findTask(observed);
    return task !== undefined && toolNames.includes("memory") ? notesStep(task, observed) : text("Noted.");
  }
  // The open request: the last user text with a question or a task (a carried input included).
  const current =
    [...observed.userTexts].reverse().find((value) => value.includes(QUESTION_PREFIX) || TASK_PATTERN.test(value)) ??
    "";
  const question = [...current.matchAll(QUESTION_PATTERN)].at(-1)?.[0];
  if (question !== undefined && !TASK_PATTERN.test(current))
    return toolNames.includes(HISTORY_TOOL) ? questionStep(question, observed) : text(bestLine(question, observed));
  const task = findTask(observed);
  if (task !== undefined && toolNames.includes(READ_DOCUMENT_TOOL)) return lookupStep(task, observed);
  return text("Noted.");
}
