/**
 * The documents of the continuity benchmark, paged for the `read_document` tool: the essays in
 * $CTXWIN_TEST_DATA/haystack (one document each, paged at sentence ends) and the LoCoMo dev
 * conversations in $CTXWIN_TEST_DATA/locomo-dev (one document each, one dialogue turn a line, paged
 * at line ends). Neither set is shipped; the benchmark skips when they are absent.
 *
 * A page is what one `read_document` call returns. The same page text is what the scripted agent
 * reads and what the answer key is computed from, so "correct" means "what the pages say".
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";

import { splitSentences, type Corpus, type CorpusDocument } from "../../src/eval/continuity/pages.js";

export {
  PAGE_HEADER,
  pageHits,
  pageOutput,
  pagesOf,
  splitSentences,
  type Corpus,
  type CorpusDocument,
  type Dialogue,
  type DocumentKind,
} from "../../src/eval/continuity/pages.js";

interface LocomoTurn {
  dia_id: string;
  speaker: string;
  text: string;
  blip_caption?: string;
}

interface LocomoConversation {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: Array<{ question: string }>;
}

/** The essays and conversations, or `undefined` with the path that is missing. */
export function loadCorpus({
  haystackDirectory,
  locomoFile,
}: {
  haystackDirectory: string;
  locomoFile: string;
}): Corpus | { missing: string } {
  if (!existsSync(haystackDirectory)) return { missing: haystackDirectory };
  if (!existsSync(locomoFile)) return { missing: locomoFile };
  const essays = readdirSync(haystackDirectory)
    .filter((file) => file.endsWith(".txt") && file !== "LICENSE.txt")
    .sort()
    .map((file): CorpusDocument => ({
      id: `essays/${file}`,
      kind: "essay",
      units: splitSentences(readFileSync(path.join(haystackDirectory, file), "utf8")),
    }))
    .filter((document) => document.units.length >= 20);
  const conversations = JSON.parse(readFileSync(locomoFile, "utf8")) as LocomoConversation[];
  const dialogues = conversations.map((conversation) => ({
    document: {
      id: `locomo/${conversation.sample_id}`,
      kind: "dialogue" as const,
      units: turnsOf(conversation.conversation).map(turnLine),
    },
    questions: conversation.qa.map((entry) => entry.question),
  }));
  return { essays, dialogues };
}

function turnsOf(conversation: Record<string, unknown>): LocomoTurn[] {
  const sessions = Object.keys(conversation)
    .map((key) => /^session_(\d+)$/.exec(key))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]))
    .sort((left, right) => left - right);
  return sessions.flatMap((number) => conversation[`session_${number}`] as LocomoTurn[]);
}

function turnLine(turn: LocomoTurn): string {
  const photo = turn.blip_caption === undefined ? "" : ` [shares ${turn.blip_caption}]`;
  return `[${turn.dia_id}] ${turn.speaker}: ${turn.text}${photo}`.replace(/\s+/g, " ");
}
