/**
 * The answer F1 of the LoCoMo benchmark (Maharana et al., ACL 2024), as its released evaluation
 * script computes it (snap-research/locomo, task_eval/evaluation.py): normalise both texts (drop
 * commas, lower-case, drop punctuation, drop the words a/an/the/and, collapse spaces), split on
 * spaces, Porter-stem each token, and take the token-overlap F1. Multi-hop questions (category 1)
 * score each comma-separated part of the gold answer against the best part of the prediction and
 * average; for category 3 only the gold answer before its first `;` counts. Adversarial questions
 * (category 5) have no gold answer and are not asked by `ctxwin eval` (docs/adr/0061).
 */
import { stemmer } from "stemmer";

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
const DROPPED_WORDS = /\b(a|an|the|and)\b/g;

/**
 * LoCoMo's `normalize_answer`.
 *
 * @example normalizeAnswer("The Sunrise, and a lake!") // "sunrise lake"
 */
export function normalizeAnswer(text: string): string {
  const lower = text.replace(/,/g, "").toLowerCase().replace(PUNCTUATION, "");
  return lower
    .replace(DROPPED_WORDS, " ")
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .join(" ");
}

/** Normalised, Porter-stemmed tokens. */
export function answerTokens(text: string): string[] {
  const normalized = normalizeAnswer(text);
  return normalized.length === 0 ? [] : normalized.split(" ").map((token) => stemmer(token));
}

/**
 * Token F1 of one prediction against one gold answer (LoCoMo's `f1_score`), from 0 to 1.
 *
 * @example tokenF1("she painted a sunrise", "a sunrise") // 0.5
 */
export function tokenF1(prediction: string, goldAnswer: string): number {
  const predicted = answerTokens(prediction);
  const gold = answerTokens(goldAnswer);
  const counts = new Map<string, number>();
  for (const token of gold) counts.set(token, (counts.get(token) ?? 0) + 1);
  let same = 0;
  for (const token of predicted) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      same += 1;
      counts.set(token, left - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / predicted.length;
  const recall = same / gold.length;
  return (2 * precision * recall) / (precision + recall);
}

/**
 * LoCoMo's multi-answer F1 (its `f1`): the mean over the gold answer's comma-separated parts of
 * the best F1 any comma-separated part of the prediction reaches.
 *
 * @example multiAnswerF1("counseling, psychology", "Psychology, counseling certification") // 0.83…
 */
export function multiAnswerF1(prediction: string, goldAnswer: string): number {
  const predictions = prediction.split(",").map((part) => part.trim());
  const golds = goldAnswer.split(",").map((part) => part.trim());
  const best = golds.map((gold) => Math.max(...predictions.map((part) => tokenF1(part, gold))));
  return best.reduce((sum, value) => sum + value, 0) / best.length;
}

/**
 * The score of one answer to one LoCoMo question of `category` (1 multi-hop, 2 temporal,
 * 3 open-domain, 4 single-hop), as the official script scores it.
 *
 * @example locomoAnswerF1({ prediction: "7 May 2023", goldAnswer: "7 May 2023", category: 2 }) // 1
 */
export function locomoAnswerF1({
  prediction,
  goldAnswer,
  category,
}: {
  prediction: string;
  goldAnswer: string;
  category: number;
}): number {
  if (category === 1) return multiAnswerF1(prediction, goldAnswer);
  const gold = category === 3 ? (goldAnswer.split(";")[0] ?? goldAnswer) : goldAnswer;
  return tokenF1(prediction, gold);
}
