/**
 * Suite `recall-qa`: a LoCoMo conversation fed to the agent as background, one message per part
 * of a dialogue session (at most 15% of the context limit each), then questions about it asked
 * after the window has rolled over. Scored by LoCoMo's answer F1 (locomo-f1.ts) and by the share
 * of each question's evidence turns (`[D3:7]`) that the agent's `session_history` calls returned.
 */
import type { EvalAsk, EvalItem, SuiteOptions } from "../eval-types.js";
import { locomoAnswerF1 } from "../locomo-f1.js";
import { createSeededRandom, shuffled } from "../../core/seeded-random.js";
import type { LocomoConversation, LocomoQuestion } from "./locomo-file.js";
import { ANSWER_INSTRUCTION, FEED_PREFIX, QUESTION_PREFIX, estimateFeedAndAsks } from "./session-text.js";

const SYSTEM =
  "You are an assistant with a long memory of a chat log the user shares with you, part by part. Answer questions about it precisely.";
/** Questions asked per conversation. */
export const QUESTIONS_PER_ITEM = 8;

function feedOf(conversation: LocomoConversation, contextLimit: number): string[] {
  const maxChars = Math.round(contextLimit * 0.15 * 3.2);
  const messages: string[] = [];
  for (const session of conversation.sessions) {
    const header = `${FEED_PREFIX} Chat log, session ${session.number}${session.dateTime === undefined ? "" : ` (${session.dateTime})`}:`;
    let lines: string[] = [];
    for (const turn of session.turns) {
      const line = `[${turn.diaId}] ${turn.speaker}: ${turn.text}`.replace(/\s+/g, " ");
      if (lines.length > 0 && [header, ...lines, line].join("\n").length > maxChars) {
        messages.push([header, ...lines].join("\n"));
        lines = [];
      }
      lines.push(line);
    }
    if (lines.length > 0) messages.push([header, ...lines].join("\n"));
  }
  return messages;
}

/** A small stable hash of a text (FNV-1a). */
function hashOf(text: string): number {
  let hash = 2_166_136_261;
  for (let index = 0; index < text.length; index += 1)
    hash = Math.imul(hash ^ text.charCodeAt(index), 16_777_619) >>> 0;
  return hash;
}

/** Share of `evidence` ids that appear, as `[D1:3]`, in any of the outputs. */
export function evidenceShare(evidence: readonly string[], outputs: readonly string[]): number {
  if (evidence.length === 0) return 0;
  return evidence.filter((id) => outputs.some((output) => output.includes(`[${id}]`))).length / evidence.length;
}

function askOf(question: LocomoQuestion): EvalAsk {
  return {
    text: `${QUESTION_PREFIX} ${question.question} ${ANSWER_INSTRUCTION}`,
    score: (answer, observation) => ({
      score: locomoAnswerF1({ prediction: answer, goldAnswer: question.answer, category: question.category }),
      ...(question.evidence.length === 0
        ? {}
        : { evidenceReached: evidenceShare(question.evidence, observation.historyOutputs) }),
      expected: question.answer,
    }),
  };
}

/**
 * One item per conversation (in file order), each with `QUESTIONS_PER_ITEM` questions drawn from
 * the seed among those with a gold answer.
 *
 * @example const items = recallQaItems({ conversations, contextLimit: 16_000, limit: 5, seed: 33 });
 */
export function recallQaItems({
  conversations,
  contextLimit,
  limit,
  seed,
}: SuiteOptions & { conversations: readonly LocomoConversation[] }): EvalItem[] {
  return conversations.slice(0, limit).map((conversation) => {
    const random = createSeededRandom(seed * 7_919 + hashOf(conversation.sampleId));
    const questions = shuffled(conversation.questions, random).slice(0, QUESTIONS_PER_ITEM);
    const feed = feedOf(conversation, contextLimit);
    const asks = questions.map(askOf);
    return {
      suite: "recall-qa" as const,
      id: `recall-qa-${conversation.sampleId}`,
      system: SYSTEM,
      feed,
      asks,
      estimate: estimateFeedAndAsks({ feed, asks, contextLimit }),
    };
  });
}
