/**
 * Synthetic but realistic transcripts for benchmarks: real prose (the caller supplies the
 * sentences, e.g. essays) chopped and recombined into user, assistant and tool rows, with
 * rollover boundaries and phrases planted where a search should find them.
 */
import type { RowInput } from "../../core/row.js";
import { windowIdFor } from "../../core/windows.js";
import type { SeededRandom } from "./seeded-random.js";

/**
 * Sentences of a text, whitespace collapsed.
 *
 * @example splitSentences("One.  Two?") // ["One.", "Two?"]
 */
export function splitSentences(text: string): string[] {
  return text
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?]) /)
    .filter((sentence) => sentence.length > 0);
}

/** Consecutive sentences from a random place, cut near `length` characters at a space. */
export function chop(sentences: readonly string[], random: SeededRandom, length: number): string {
  let text = "";
  for (let index = random.integer(0, sentences.length - 1); text.length < length; index = (index + 1) % sentences.length) {
    text += (text ? " " : "") + sentences[index];
  }
  const cut = text.lastIndexOf(" ", length);
  return text.slice(0, cut > length / 2 ? cut : length);
}

/** Inserts `phrase` at a word boundary, in lower case or Title Case at random. */
export function plant(text: string, phrase: string, random: SeededRandom): string {
  const at = text.indexOf(" ", random.integer(0, text.length - 1));
  const cased = random.next() < 0.5 ? phrase : phrase.replace(/\b\w/g, (letter) => letter.toUpperCase());
  return at < 0 ? `${text} ${cased}` : `${text.slice(0, at)} ${cased}${text.slice(at)}`;
}

/** One content row: user text, assistant text, or an assistant tool call with its output. */
export function contentRow(text: string, random: SeededRandom, seq: number): RowInput {
  const tokens = Math.ceil(text.length / 4);
  const draw = random.next();
  if (draw < 0.25) return { role: "user", parts: [{ type: "text", text }], tokens };
  if (draw < 0.6) return { role: "assistant", parts: [{ type: "text", text }], tokens };
  return {
    role: "assistant",
    parts: [{ type: "dynamic-tool", toolName: "read_file", toolCallId: `call-${seq}`, state: "output-available", input: { path: `notes/${seq % 97}.md` }, output: text }],
    tokens,
  };
}

/** A rollover boundary and its hidden lead-in, as the session engine writes them. */
export function rolloverRows(rolloverId: string, previousWindowSeq: number): RowInput[] {
  return [
    {
      role: "assistant",
      parts: [],
      boundary: { kind: "rollover" },
      meta: { type: "rollover", rolloverId, reason: "on-send", previousWindowId: windowIdFor(previousWindowSeq), flushOpportunity: true, contextTokens: 90_000, maxTokens: 128_000 },
    },
    { role: "user", parts: [{ type: "text", text: `New window after rollover ${rolloverId}.` }], synthetic: true, uiVisible: false, meta: { type: "lead-in", rolloverId } },
  ];
}
