/**
 * The continuity benchmark's scripted agent. It decides each step from its request alone: the
 * task is whatever lookup task the request shows (the user input, a carried input, the notes, a
 * summary, or a `session_history` result); what it has read is what the request shows (page
 * results, its notes, a compaction summary, history pages). It keeps no state between requests.
 *
 * Its policy, the same in every configuration (docs/adr/0026):
 * - asked to update its notes (budget warning, notes-flush step) it writes everything it knows;
 *   asked for a summary (strategy `compact`) it writes the same, as an ideal summarizer would;
 * - without a task in view it searches the history for it, then reads the hit;
 * - it reads the next page it needs: from `session_history read_item` when a carried ledger names
 *   the item that holds that page, otherwise with `read_document`;
 * - with every finding in view it answers.
 */
import type { ScriptedStep } from "../../src/session/test-support/scripted-model.js";
import { PAGE_HEADER, pageHits, type DocumentKind } from "./corpus.js";
import type { ObservedRequest, ObservedToolStep } from "./observe.js";
import { ANSWER_FORMAT, FILLER_PREFIX, TASK_MARKER, formatFinding } from "../../src/eval/continuity/lookup-tasks.js";

export const NOTES_PATH = "/memories/workspace/context-notes.md";
export const READ_TOOL = "read_document";
const HISTORY_TOOL = "session_history";

/** What kind of request it was, for the benchmark's accounting. */
export type RequestKind = "filler" | "notes" | "flush" | "summary" | "recover" | "history-read" | "read" | "answer";

export interface AgentDecision {
  kind: RequestKind;
  step: ScriptedStep;
}

interface ParsedTask {
  text: string;
  documents: Array<{ id: string; kind: DocumentKind; word: string }>;
}

interface PageRecord {
  document: string;
  page: number;
  pages: number;
  hits: string[];
}

const TASK_PATTERN = new RegExp(
  `${TASK_MARKER} \\S+\\. For each document below, .*? Documents: (.+?)\\. ${escapeRegExp(ANSWER_FORMAT)}`,
);
const NOTE_LINE = /^- (\S+) p(\d+)\/(\d+): (\[.*\])$/gm;
const LEDGER_LINE = /^- item (\d+): read_document (\{.*\}) → finished$/gm;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The next step for this request.
 *
 * @example const { step } = decide(observeRequest(call.prompt));
 */
export function decide(request: ObservedRequest): AgentDecision {
  const last = request.lastUserText;
  const fresh = request.stepsSinceUser.length === 0;
  if (fresh && last.startsWith(FILLER_PREFIX)) return { kind: "filler", step: { text: "Noted." } };
  const task = findTask(request);
  const records = knownPages(request, task);
  if (last.startsWith("Write a summary of the conversation so far"))
    return { kind: "summary", step: { text: notesText(task, records) } };
  if (fresh && last.includes("rolls over after this step")) return { kind: "flush", step: writeNotes(task, records) };
  if (fresh && last.startsWith("[Context budget]")) return { kind: "notes", step: writeNotes(task, records) };
  if (task === undefined) return recoverTask(request);
  const ledger = ledgerOf(request);
  const lines: string[] = [];
  for (const document of task.documents) {
    const state = documentState(document, records);
    if (state.need === undefined) {
      lines.push(`${document.id} => ${formatFinding(document.kind, state.hits)}`);
      continue;
    }
    const key = pageKey(document.id, state.need);
    const itemId = ledger.get(key);
    const history = itemId === undefined ? undefined : historyText(request, itemId);
    if (itemId !== undefined && history?.failed !== true) {
      return {
        kind: "history-read",
        step: call(HISTORY_TOOL, {
          action: "read_item",
          item_id: itemId,
          offset_chars: history?.text.length ?? 0,
          limit_chars: 16_000,
        }),
      };
    }
    return { kind: "read", step: call(READ_TOOL, { document: document.id, page: state.need }) };
  }
  const answer = lines.join("\n");
  return { kind: "answer", step: { text: answer, outputTokens: tokens(answer) } };
}

function call(toolName: string, input: Record<string, unknown>): ScriptedStep {
  return { toolCalls: [{ toolName, input }], outputTokens: tokens(JSON.stringify(input)) + 5 };
}

const tokens = (text: string) => Math.ceil(text.length / 3);

function writeNotes(task: ParsedTask | undefined, records: Map<string, PageRecord>): ScriptedStep {
  return call("memory", { command: "create", path: NOTES_PATH, file_text: notesText(task, records), overwrite: true });
}

/** The notes (and the summary): the task verbatim, then one line per page read with its matches. */
function notesText(task: ParsedTask | undefined, records: Map<string, PageRecord>): string {
  const pages = [...records.values()]
    .sort((left, right) =>
      left.document === right.document ? left.page - right.page : left.document < right.document ? -1 : 1,
    )
    .map((record) => `- ${record.document} p${record.page}/${record.pages}: ${JSON.stringify(record.hits)}`);
  return [
    "# Context notes",
    `Task: ${task?.text ?? "(unknown)"}`,
    "Pages read (document page/pages: matches):",
    ...pages,
    "",
  ].join("\n");
}

/** Every text of the request the task could be quoted in. */
function textsOf(request: ObservedRequest): string[] {
  const texts = [request.system, ...request.userTexts];
  for (const step of request.steps) {
    if (step.toolName === "memory" && typeof step.input["file_text"] === "string") texts.push(step.input["file_text"]);
    if (step.toolName !== HISTORY_TOOL) continue;
    const output = step.output as { hits?: Array<{ snippet?: unknown }>; text?: unknown } | undefined;
    for (const hit of output?.hits ?? []) if (typeof hit.snippet === "string") texts.push(hit.snippet);
  }
  for (const [, history] of historyTexts(request)) if (!history.failed) texts.push(history.text);
  return texts;
}

function findTask(request: ObservedRequest): ParsedTask | undefined {
  for (const text of textsOf(request)) {
    const match = TASK_PATTERN.exec(text);
    if (match === null) continue;
    const documents = match[1]!.split("; ").flatMap((entry) => {
      const parts = /^(\S+) "([^"]+)"$/.exec(entry);
      if (parts === null) return [];
      const id = parts[1]!;
      return [{ id, kind: (id.startsWith("essays/") ? "essay" : "dialogue") as DocumentKind, word: parts[2]! }];
    });
    if (documents.length > 0) return { text: match[0], documents };
  }
  return undefined;
}

/** Without its task in view: search the history for it, then read the newest user input found. */
function recoverTask(request: ObservedRequest): AgentDecision {
  const searches = request.steps.filter((step) => step.toolName === HISTORY_TOOL && step.input["action"] === "search");
  if (searches.length === 0)
    return { kind: "recover", step: call(HISTORY_TOOL, { action: "search", query: TASK_MARKER, mode: "literal" }) };
  const results = searches.map((step) => step.output as SearchOutput | undefined);
  const hit = results.flatMap((result) =>
    (result?.hits ?? []).filter((entry) => entry.role === "user" && entry.type === undefined),
  )[0];
  if (hit === undefined) {
    // Newest first: the agent's own earlier searches match too, so page back to the user's input.
    const before = results.at(-1)?.next?.before_item;
    if (typeof before === "string" && searches.length < 10)
      return {
        kind: "recover",
        step: call(HISTORY_TOOL, { action: "search", query: TASK_MARKER, mode: "literal", before_item: before }),
      };
    return { kind: "answer", step: { text: "I could not find the task I was working on." } };
  }
  const history = historyText(request, hit.item_id);
  if (history?.failed === true)
    return { kind: "answer", step: { text: "I could not read the task I was working on." } };
  return {
    kind: "recover",
    step: call(HISTORY_TOOL, {
      action: "read_item",
      item_id: hit.item_id,
      offset_chars: history?.text.length ?? 0,
      limit_chars: 16_000,
    }),
  };
}

interface SearchOutput {
  hits?: Array<{ item_id: string; role: string; type?: string }>;
  next?: { before_item?: unknown } | null;
}

function pageKey(document: string, page: number): string {
  return `${document}#${page}`;
}

/** Pages whose matches the request shows: notes and summaries, page results, history pages. */
function knownPages(request: ObservedRequest, task: ParsedTask | undefined): Map<string, PageRecord> {
  const records = new Map<string, PageRecord>();
  for (const text of [request.system, ...request.userTexts]) {
    for (const match of text.matchAll(NOTE_LINE)) {
      let hits: unknown;
      try {
        hits = JSON.parse(match[4]!);
      } catch {
        continue;
      }
      if (!Array.isArray(hits)) continue;
      const record = { document: match[1]!, page: Number(match[2]), pages: Number(match[3]), hits: hits.map(String) };
      records.set(pageKey(record.document, record.page), record);
    }
  }
  if (task === undefined) return records;
  const pageTexts = [
    ...request.steps
      .filter((step) => step.toolName === READ_TOOL && typeof step.output === "string")
      .map((step) => step.output as string),
    ...[...historyTexts(request).values()]
      .filter((history) => history.complete && !history.failed)
      .map((history) => history.text),
  ];
  for (const text of pageTexts) {
    const header = PAGE_HEADER.exec(text);
    if (header === null) continue;
    const document = task.documents.find((entry) => entry.id === header[1]);
    if (document === undefined) continue;
    const body = text.slice(header.index + header[0].length);
    const found = pageHits({ kind: document.kind, word: document.word, text: body });
    const hits = document.kind === "essay" ? found.slice(0, 1) : found;
    records.set(pageKey(document.id, Number(header[2])), {
      document: document.id,
      page: Number(header[2]),
      pages: Number(header[3]),
      hits,
    });
  }
  return records;
}

/** The next page a document needs, or its hits when none is needed. */
function documentState(
  document: ParsedTask["documents"][number],
  records: Map<string, PageRecord>,
): { need?: number; hits: string[] } {
  const hits: string[] = [];
  for (let page = 1; ; page += 1) {
    const record = records.get(pageKey(document.id, page));
    if (record === undefined) {
      const known = [...records.values()].find((entry) => entry.document === document.id);
      if (known !== undefined && page > known.pages) return { hits };
      return { need: page, hits };
    }
    hits.push(...record.hits);
    if (document.kind === "essay" && record.hits.length > 0) return { hits };
    if (page >= record.pages) return { hits };
  }
}

/** The carried ledger: which item holds the result of each `read_document` call of the turn. */
function ledgerOf(request: ObservedRequest): Map<string, string> {
  const ledger = new Map<string, string>();
  for (const text of request.userTexts) {
    for (const match of text.matchAll(LEDGER_LINE)) {
      try {
        const input = JSON.parse(match[2]!) as { document?: unknown; page?: unknown };
        if (typeof input.document === "string" && typeof input.page === "number")
          ledger.set(pageKey(input.document, input.page), match[1]!);
      } catch {
        // Arguments cut by the ledger's bound: that call cannot be named, so it is read again.
      }
    }
  }
  return ledger;
}

interface HistoryText {
  text: string;
  complete: boolean;
  failed: boolean;
}

/** The text of each item read with `read_item` in this request, joined from its pages in order. */
function historyTexts(request: ObservedRequest): Map<string, HistoryText> {
  const texts = new Map<string, HistoryText>();
  for (const step of request.steps) {
    if (step.toolName !== HISTORY_TOOL || step.input["action"] !== "read_item") continue;
    const itemId = String(step.input["item_id"]);
    const output = step.output as
      { ok?: boolean; offset_chars?: number; text?: string; has_more?: boolean } | undefined;
    const current = texts.get(itemId) ?? { text: "", complete: false, failed: false };
    if (output?.ok !== true || typeof output.text !== "string") {
      texts.set(itemId, { ...current, failed: true });
      continue;
    }
    if (output.offset_chars !== current.text.length) continue;
    texts.set(itemId, { text: current.text + output.text, complete: output.has_more !== true, failed: false });
  }
  return texts;
}

function historyText(request: ObservedRequest, itemId: string): HistoryText | undefined {
  return historyTexts(request).get(itemId);
}

export type { ObservedToolStep };
