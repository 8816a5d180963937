/**
 * What every suite sends: background messages the agent only acknowledges, and questions. The
 * prefixes are plain instructions a real model follows; the scripted eval model recognises them.
 */
import { CHARS_PER_TOKEN, FILLER_PREFIX } from "../continuity/lookup-tasks.js";

/** Starts every fed message (the continuity benchmark's filler prefix). */
export const FEED_PREFIX = FILLER_PREFIX;
/** Starts every question of recall-qa and needle. */
export const QUESTION_PREFIX = "Question:";
export const ANSWER_INSTRUCTION = "Answer with the short answer only, no explanation.";

/** Tokens of a text, by the rough estimate the suites size their messages with. */
export function roughTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Tokens the system prompt, tools and instructions take in every request, roughly. */
const REQUEST_OVERHEAD_TOKENS = 2_000;

/**
 * `estimateRun` of an item that feeds `feed` and then asks `asks`.
 *
 * @example estimateFeedAndAsks({ feed: ["a long message"], asks: [{ text: "What was it?" }], contextLimit: 16_000 })
 */
export function estimateFeedAndAsks({
  feed,
  asks,
  contextLimit,
}: {
  feed: readonly string[];
  asks: readonly { text: string }[];
  contextLimit: number;
}): { inputTokens: number; outputTokens: number } {
  return estimateRun({
    messageTokens: feed.map(roughTokens),
    askTokens: asks.map((ask) => roughTokens(ask.text)),
    contextLimit,
  });
}

/**
 * Rough input and output tokens of one run with strategy `rollover`: each send carries the window
 * so far (it restarts after about 80% of the limit), each answer is short.
 *
 * @example estimateRun({ messageTokens: [900, 900], askTokens: [30], contextLimit: 16_000, stepsPerAsk: 3 })
 */
export function estimateRun({
  messageTokens,
  askTokens,
  contextLimit,
  stepsPerAsk = 3,
}: {
  messageTokens: readonly number[];
  askTokens: readonly number[];
  contextLimit: number;
  stepsPerAsk?: number;
}): { inputTokens: number; outputTokens: number } {
  let window = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  const send = (tokens: number, steps: number) => {
    window += tokens;
    if (window > 0.8 * contextLimit) window = tokens;
    inputTokens += steps * (window + REQUEST_OVERHEAD_TOKENS);
    outputTokens += steps * 30;
    window += 10;
  };
  for (const tokens of messageTokens) send(tokens, 1);
  for (const tokens of askTokens) send(tokens, stepsPerAsk);
  return { inputTokens, outputTokens };
}
