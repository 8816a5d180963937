/**
 * Synthetic but realistic transcripts for benchmarks: real prose (the caller supplies the
 * sentences, e.g. essays) chopped and recombined into user, assistant and tool rows, with
 * rollover boundaries and phrases planted where a search should find them.
 */
import { stepMetadata } from "../../core/rollover/step-usage.js";
import type { RowInput } from "../../core/row.js";
import { windowIdFor } from "../../core/windows.js";
import type { HistoryStore, StoredRow } from "../port.js";
import { rollover } from "./conformance-rows.js";
import { createSeededRandom, type SeededRandom } from "./seeded-random.js";

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
  for (
    let index = random.integer(0, sentences.length - 1);
    text.length < length;
    index = (index + 1) % sentences.length
  ) {
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

/** The context limit synthetic step rows say they were budgeted against. */
export const SYNTHETIC_CONTEXT_LIMIT = 128_000;

/**
 * One content row: user text, assistant text, or an assistant tool call with its output. With
 * `windowTokens` (the tokens of the window's rows before this one), an assistant row is a step row
 * as the session engine stores it: its metadata says what the request it answered held.
 */
export function contentRow(text: string, random: SeededRandom, seq: number, windowTokens?: number): RowInput {
  const tokens = Math.ceil(text.length / 4);
  const draw = random.next();
  if (draw < 0.25) return { role: "user", parts: [{ type: "text", text }], tokens };
  const metadata =
    windowTokens === undefined
      ? undefined
      : stepMetadata({
          usage: { inputTokens: windowTokens, outputTokens: tokens },
          model: "synthetic:model",
          estimatedInputTokens: windowTokens,
          contextLimit: SYNTHETIC_CONTEXT_LIMIT,
        });
  if (draw < 0.6) return { role: "assistant", parts: [{ type: "text", text }], tokens, ...(metadata && { metadata }) };
  return {
    role: "assistant",
    parts: [
      {
        type: "dynamic-tool",
        toolName: "read_file",
        toolCallId: `call-${seq}`,
        state: "output-available",
        input: { path: `notes/${seq % 97}.md` },
        output: text,
      },
    ],
    tokens,
    ...(metadata && { metadata }),
  };
}

/** A rollover boundary and its hidden lead-in, as the session engine writes them. */
export function rolloverRows(rolloverId: string, previousWindowSeq: number): RowInput[] {
  return [
    rollover(rolloverId, windowIdFor(previousWindowSeq), { contextTokens: 90_000, maxTokens: 128_000 }),
    {
      role: "user",
      parts: [{ type: "text", text: `New window after rollover ${rolloverId}.` }],
      synthetic: true,
      uiVisible: false,
      meta: { type: "lead-in", rolloverId },
    },
  ];
}

export interface SyntheticTranscriptSpec {
  rows: number;
  /** A rollover boundary and lead-in every this many rows. */
  windowRows: number;
  /** Mean characters of text per content row (rows vary from half to one and a half times it). */
  meanChars: number;
  seed: number;
  /** Assistant rows carry step metadata (the request's tokens and limit), as the timeline reads them. */
  stepRows?: boolean;
}

/**
 * Writes a realistic transcript into `store`: content rows chopped from `sentences`, a rollover
 * every `windowRows` rows, each of `phrases` planted in `plantedPerPhrase` random rows. Appends
 * 10,000 rows per call; `onBatch` sees every stored batch (e.g. to export it). Returns the bytes of
 * text written.
 */
export async function writeSyntheticTranscript({
  store,
  sessionId,
  spec,
  sentences,
  phrases,
  plantedPerPhrase,
  onBatch = () => {},
}: {
  store: HistoryStore;
  sessionId: string;
  spec: SyntheticTranscriptSpec;
  sentences: readonly string[];
  phrases: readonly string[];
  plantedPerPhrase: number;
  onBatch?: (rows: StoredRow[]) => void;
}): Promise<number> {
  const random = createSeededRandom(spec.seed);
  const planted = new Map<number, string>();
  for (const phrase of phrases) {
    for (let count = 0; count < plantedPerPhrase;) {
      const seq = random.integer(2, spec.rows);
      if (!planted.has(seq) && (seq - 1) % spec.windowRows > 1) {
        planted.set(seq, phrase);
        count += 1;
      }
    }
  }
  let textBytes = 0;
  let windowSeq = 0;
  let windowTokens = 0;
  let pending: RowInput[] = [];
  for (let seq = 1; seq <= spec.rows; seq += 1) {
    if (seq > 1 && (seq - 1) % spec.windowRows === 0 && seq < spec.rows) {
      pending.push(...rolloverRows(`r${seq}`, windowSeq));
      windowSeq = seq;
      windowTokens = 0;
      seq += 1;
    } else {
      const length = random.integer(Math.floor(spec.meanChars / 2), Math.floor((spec.meanChars * 3) / 2));
      const phrase = planted.get(seq);
      const text =
        phrase === undefined ? chop(sentences, random, length) : plant(chop(sentences, random, length), phrase, random);
      textBytes += new TextEncoder().encode(text).length;
      const row = contentRow(text, random, seq, spec.stepRows === true ? windowTokens : undefined);
      windowTokens += row.tokens ?? 0;
      pending.push(row);
    }
    if (pending.length >= 10_000 || seq >= spec.rows) {
      onBatch(await store.append(sessionId, pending));
      pending = [];
    }
  }
  return textBytes;
}
