/**
 * Suite `continuity`: the lookup tasks of the continuity benchmark (docs/adr/0026) asked of a real
 * model — read documents page by page with `read_document` and report, for each, the first
 * sentence that contains its word — over essays generated from the seed (the benchmark's essays
 * are not shipped). Each task reads 1.0–1.8× the context limit after some earlier conversation,
 * so rollovers fall in the middle of its turn. Scored 1 when every answer line is exact, else 0;
 * `read_document` counts the reads and the re-reads of a page already read.
 */
import { tool } from "ai";
import { z } from "zod";
import type { EvalItem, ItemTools, SuiteOptions } from "../eval-types.js";
import { createSeededRandom, type SeededRandom } from "../../core/seeded-random.js";
import { expectedLines, isCorrect, makeTask, type LookupTask } from "../continuity/lookup-tasks.js";
import { pageOutput, type Corpus, type CorpusDocument } from "../continuity/pages.js";
import { estimateRun, roughTokens } from "./session-text.js";

export const READ_DOCUMENT_TOOL = "read_document";
const SYSTEM = "You are a research agent. Read documents with read_document and answer exactly.";
const SYLLABLES = [
  "bar",
  "ven",
  "tol",
  "mir",
  "quo",
  "sel",
  "dra",
  "kin",
  "pel",
  "rou",
  "zan",
  "fey",
  "lum",
  "gor",
  "tis",
  "wen",
  "cal",
  "dor",
  "nim",
  "sar",
];
const PLAIN_WORDS = ["river", "market", "winter", "letter", "garden", "harbor", "engine", "season", "window", "mirror"];

/** A made-up word of three or four syllables: rare enough that a task's word points at one sentence. */
function madeUpWord(random: SeededRandom): string {
  const count = random.integer(3, 4);
  return Array.from({ length: count }, () => SYLLABLES[random.integer(0, SYLLABLES.length - 1)]!).join("");
}

function sentence(random: SeededRandom): string {
  const word = () =>
    random.next() < 0.5 ? madeUpWord(random) : PLAIN_WORDS[random.integer(0, PLAIN_WORDS.length - 1)]!;
  const text =
    `The ${word()} of ${madeUpWord(random)} was ${random.integer(2, 97)} steps from ` +
    `the ${word()} where the ${madeUpWord(random)} kept its ${word()}.`;
  return text;
}

/** Generated essays: the corpus the shipped suite draws its tasks from. */
export function generatedCorpus(seed: number, essays = 24): Corpus {
  const random = createSeededRandom(seed);
  const documents: CorpusDocument[] = Array.from({ length: essays }, (_, index) => ({
    id: `essays/essay-${String(index + 1).padStart(2, "0")}.txt`,
    kind: "essay" as const,
    units: Array.from({ length: random.integer(120, 220) }, () => sentence(random)),
  }));
  return { essays: documents, dialogues: [] };
}

function readDocumentTools(task: LookupTask): ItemTools {
  const byId = new Map(task.documents.map((document) => [document.id, document]));
  const seen = new Set<string>();
  let documentReads = 0;
  let redundantReads = 0;
  const readDocument = tool({
    description: "Reads one page of a document. Pages are numbered from 1; the result says how many there are.",
    inputSchema: z.object({ document: z.string(), page: z.number().int() }),
    execute: async ({ document, page }) => {
      const found = byId.get(document);
      const text = found?.pages[page - 1];
      if (found === undefined || text === undefined) throw new Error(`No page ${page} of ${document}.`);
      documentReads += 1;
      if (seen.has(`${document}#${page}`)) redundantReads += 1;
      seen.add(`${document}#${page}`);
      return pageOutput({ documentId: document, page, pages: found.pages.length, text });
    },
  });
  return { tools: { [READ_DOCUMENT_TOOL]: readDocument }, measures: () => ({ documentReads, redundantReads }) };
}

/**
 * @example const items = continuityItems({ contextLimit: 16_000, limit: 5, seed: 33 });
 */
export function continuityItems({ contextLimit, limit, seed }: SuiteOptions): EvalItem[] {
  const corpus = generatedCorpus(seed);
  return Array.from({ length: limit }, (_, index) => {
    const random = createSeededRandom(seed * 7_919 + index);
    const task = makeTask({ corpus, family: "essays", limit: contextLimit, id: `C${index + 1}`, random });
    const estimate = estimateRun({
      messageTokens: task.filler.map(roughTokens),
      askTokens: [roughTokens(task.text)],
      contextLimit,
      stepsPerAsk: 1,
    });
    // Every page read is a step that carries the window (half the limit on average); pages are 5–10% of it.
    const readSteps = Math.ceil(task.readTokens / (0.075 * contextLimit));
    return {
      suite: "continuity" as const,
      id: `continuity-${index + 1}`,
      system: SYSTEM,
      feed: task.filler,
      asks: [
        {
          text: task.text,
          score: (answer: string) => ({
            score: isCorrect(task, answer) ? 1 : 0,
            expected: expectedLines(task).join("\n"),
          }),
        },
      ],
      createTools: () => readDocumentTools(task),
      estimate: {
        inputTokens: estimate.inputTokens + readSteps * Math.round(0.5 * contextLimit + 2_000),
        outputTokens: estimate.outputTokens + readSteps * 30,
      },
    };
  });
}
