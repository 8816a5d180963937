/**
 * Lookup tasks for the continuity benchmark and the `continuity` suite of `ctxwin eval`, drawn with a seed: a list of documents, each
 * with a word, that the agent must read page by page with `read_document` before it can answer.
 * - essays: the first sentence of each essay that contains its word (the agent stops reading an
 *   essay at the page that has it);
 * - LoCoMo conversations: the ids of every turn that contains its word (the agent reads every
 *   page); the word comes from one of the LoCoMo questions about that conversation.
 * Each task reads more than its window holds (1.0–1.8 × the limit), after a random amount of
 * earlier conversation (filler) in the same window, so rollovers fall at random points mid-turn.
 */
import { isStopWord } from "../../core/stop-words.js";
import { shuffled, type SeededRandom } from "../../core/seeded-random.js";
import { pageHits, pagesOf, type Corpus, type CorpusDocument, type DocumentKind } from "./pages.js";

/** Characters per token of the engine's estimate for the scripted model (o200k × 1.3), roughly. */
export const CHARS_PER_TOKEN = 3.2;

export interface TaskDocument {
  id: string;
  kind: DocumentKind;
  word: string;
  pages: string[];
}

export interface LookupTask {
  id: string;
  family: "essays" | "locomo";
  limit: number;
  /** The user input that starts the task. */
  text: string;
  documents: TaskDocument[];
  /** The answer key: document id → finding, as `formatFinding` writes it. */
  answers: Map<string, string>;
  /** Earlier messages in the window, sent before the task (each answered "Noted."). */
  filler: string[];
  /** Their estimated tokens. */
  fillerTokens: number;
  /** Estimated tokens of the pages the task must read. */
  readTokens: number;
}

/** The finding for one document from its hits (`pageHits` over the pages read, in order). */
export function formatFinding(kind: DocumentKind, hits: readonly string[]): string {
  if (kind === "essay") return hits[0] ?? "(none)";
  return hits.length === 0 ? "(none)" : hits.join(", ");
}

export const TASK_MARKER = "Lookup task";
export const ANSWER_FORMAT = "Answer with one line per document: <document> => <finding>.";

function taskText({
  id,
  family,
  documents,
}: {
  id: string;
  family: LookupTask["family"];
  documents: readonly TaskDocument[];
}): string {
  const what =
    family === "essays"
      ? "the first sentence that contains its word (whole word, any case), quoted exactly"
      : "the ids of every turn that contains its word (whole word, any case), in order, or (none)";
  const list = documents.map((document) => `${document.id} "${document.word}"`).join("; ");
  return `${TASK_MARKER} ${id}. For each document below, read it page by page with read_document and report ${what}. Documents: ${list}. ${ANSWER_FORMAT}`;
}

function contentWords(text: string): string[] {
  return [
    ...new Set(
      (text.match(/[A-Za-z]{5,}/g) ?? []).map((word) => word.toLowerCase()).filter((word) => !isStopWord(word)),
    ),
  ];
}

/** An essay with a word from a random sentence past its first quarter, and the pages up to its first hit. */
function essayDocument(
  essay: CorpusDocument,
  pageChars: number,
  random: SeededRandom,
): { document: TaskDocument; readChars: number } | undefined {
  const pages = pagesOf(essay, pageChars);
  const sentence = essay.units[random.integer(Math.floor(essay.units.length / 4), essay.units.length - 1)] ?? "";
  const words = contentWords(sentence).filter((word) => word.length >= 6);
  if (words.length === 0) return undefined;
  const word = words[random.integer(0, words.length - 1)]!;
  const firstHit = pages.findIndex((text) => pageHits({ kind: "essay", word, text }).length > 0);
  if (firstHit < 0) return undefined;
  const readChars = pages.slice(0, firstHit + 1).reduce((sum, text) => sum + text.length, 0);
  return { document: { id: essay.id, kind: "essay", word, pages }, readChars };
}

/** A conversation with a word from one of its questions that 1–12 turns contain. */
function dialogueDocument(
  dialogue: Corpus["dialogues"][number],
  pageChars: number,
  random: SeededRandom,
): { document: TaskDocument; readChars: number } | undefined {
  const pages = pagesOf(dialogue.document, pageChars);
  for (const question of shuffled(dialogue.questions, random).slice(0, 40)) {
    for (const word of contentWords(question)) {
      const hits = pages.flatMap((text) => pageHits({ kind: "dialogue", word, text }));
      if (hits.length >= 1 && hits.length <= 12) {
        return {
          document: { id: dialogue.document.id, kind: "dialogue", word, pages },
          readChars: pages.reduce((sum, text) => sum + text.length, 0),
        };
      }
    }
  }
  return undefined;
}

/**
 * One task of `family` for a window of `limit` tokens.
 *
 * @example makeTask({ corpus, family: "essays", limit: 16_000, id: "E16k-1", random })
 */
export function makeTask({
  corpus,
  family,
  limit,
  id,
  random,
}: {
  corpus: Corpus;
  family: LookupTask["family"];
  limit: number;
  id: string;
  random: SeededRandom;
}): LookupTask {
  const pageChars = Math.round(limit * (0.05 + 0.05 * random.next()) * CHARS_PER_TOKEN);
  const targetTokens = limit * (1 + 0.8 * random.next());
  const fillerTokens = Math.round(limit * (0.05 + 0.4 * random.next()));
  const documents: TaskDocument[] = [];
  let readChars = 0;
  const pool = family === "essays" ? shuffled(corpus.essays, random) : shuffled(corpus.dialogues, random);
  for (const source of pool) {
    if (readChars / CHARS_PER_TOKEN >= targetTokens || documents.length >= 16) break;
    const picked =
      family === "essays"
        ? essayDocument(source as CorpusDocument, pageChars, random)
        : dialogueDocument(source as Corpus["dialogues"][number], pageChars, random);
    if (picked === undefined) continue;
    documents.push(picked.document);
    readChars += picked.readChars;
  }
  const answers = new Map(
    documents.map((document) => {
      const hits =
        document.kind === "essay"
          ? (document.pages
              .map((text) => pageHits({ kind: "essay", word: document.word, text }))
              .find((found) => found.length > 0) ?? [])
          : document.pages.flatMap((text) => pageHits({ kind: "dialogue", word: document.word, text }));
      return [document.id, formatFinding(document.kind, hits)] as const;
    }),
  );
  const filler = fillerMessages({ corpus, tokens: fillerTokens, limit, random });
  return {
    id,
    family,
    limit,
    text: taskText({ id, family, documents }),
    documents,
    answers,
    filler,
    fillerTokens,
    readTokens: Math.round(readChars / CHARS_PER_TOKEN),
  };
}

export const FILLER_PREFIX = "Background for later (no task; reply Noted.):";

/** Earlier conversation: essay passages in messages of at most 15% of the limit. */
function fillerMessages({
  corpus,
  tokens,
  limit,
  random,
}: {
  corpus: Corpus;
  tokens: number;
  limit: number;
  random: SeededRandom;
}): string[] {
  const messages: string[] = [];
  for (let left = tokens * CHARS_PER_TOKEN; left > 200;) {
    const size = Math.min(left, 0.15 * limit * CHARS_PER_TOKEN);
    const essay = corpus.essays[random.integer(0, corpus.essays.length - 1)]!;
    let text = "";
    for (
      let index = random.integer(0, essay.units.length - 1);
      text.length < size;
      index = (index + 1) % essay.units.length
    )
      text += ` ${essay.units[index]}`;
    messages.push(`${FILLER_PREFIX}${text.slice(0, Math.round(size))}`);
    left -= size;
  }
  return messages;
}

/** The answer lines a correct answer holds. */
export function expectedLines(task: LookupTask): string[] {
  return task.documents.map((document) => `${document.id} => ${task.answers.get(document.id) ?? ""}`);
}

/** Whether `answer` holds every expected line (and so every finding, exactly). */
export function isCorrect(task: LookupTask, answer: string): boolean {
  const lines = new Set(answer.split("\n").map((line) => line.trim()));
  return expectedLines(task).every((line) => lines.has(line));
}
