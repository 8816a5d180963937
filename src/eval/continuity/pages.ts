/**
 * Paged documents for lookup tasks (the continuity benchmark and the `continuity` suite of
 * `ctxwin eval`): a page is what one `read_document` call returns. The same page text is what the
 * agent reads and what the answer key is computed from, so "correct" means "what the pages say".
 */

export type DocumentKind = "essay" | "dialogue";

export interface CorpusDocument {
  /** `essays/<file>` or `locomo/<sample id>`. */
  id: string;
  kind: DocumentKind;
  /** Sentences (essays) or turn lines (dialogues), in order. */
  units: string[];
}

export interface Dialogue {
  document: CorpusDocument;
  /** Questions of the LoCoMo set about this conversation. */
  questions: string[];
}

export interface Corpus {
  essays: CorpusDocument[];
  dialogues: Dialogue[];
}

/** Sentences with their whitespace collapsed, split after `.`, `!` or `?`. */
export function splitSentences(text: string): string[] {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .split(/(?<=[.!?]) /)
    .filter((sentence) => sentence.length > 0);
}

/** Pages of at most `pageChars` characters (a longer unit is a page of its own). */
export function pagesOf(document: CorpusDocument, pageChars: number): string[] {
  const separator = document.kind === "essay" ? " " : "\n";
  const pages: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const unit of document.units) {
    if (current.length > 0 && size + separator.length + unit.length > pageChars) {
      pages.push(current.join(separator));
      current = [];
      size = 0;
    }
    size += (current.length > 0 ? separator.length : 0) + unit.length;
    current.push(unit);
  }
  if (current.length > 0) pages.push(current.join(separator));
  return pages;
}

/** What `read_document` returns for one page: a header line, then the page. */
export function pageOutput({
  documentId,
  page,
  pages,
  text,
}: {
  documentId: string;
  page: number;
  pages: number;
  text: string;
}): string {
  return `Document ${documentId}, page ${page} of ${pages}:\n${text}`;
}

/** The header `pageOutput` writes, found anywhere in a text (a tool result, a history page). */
export const PAGE_HEADER = /Document (\S+), page (\d+) of (\d+):\n/;

/**
 * What a page holds for a word: for an essay the sentences that contain it (the first one is the
 * answer), for a dialogue the ids of the turns that contain it. Whole words, any case.
 *
 * @example pageHits({ kind: "dialogue", word: "painting", text: "[D1:2] Mel: My painting…" }) // ["D1:2"]
 */
export function pageHits({ kind, word, text }: { kind: DocumentKind; word: string; text: string }): string[] {
  const pattern = new RegExp(`\\b${word.replace(/[^A-Za-z0-9]/g, "")}\\b`, "i");
  if (kind === "essay") return splitSentences(text).filter((sentence) => pattern.test(sentence));
  return text
    .split("\n")
    .filter((line) => pattern.test(line.replace(/^\[[^\]]*\] /, "")))
    .map((line) => /^\[([^\]]+)\]/.exec(line)?.[1] ?? "?");
}
