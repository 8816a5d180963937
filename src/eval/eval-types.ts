/**
 * The vocabulary of `ctxwin eval`: a suite draws items; an item is a session to run (messages fed
 * first, then questions asked); each item runs once per strategy with the same model and context
 * limit; each run gives one `ItemResult`, one line of the results file.
 */
import type { ToolSet } from "ai";
import type { BudgetStrategy } from "../session/session-types.js";

export const SUITE_NAMES = ["continuity", "recall-qa", "needle"] as const;
export type SuiteName = (typeof SUITE_NAMES)[number];

export const STRATEGIES = ["rollover", "compact", "off"] as const satisfies readonly BudgetStrategy[];
export type EvalStrategy = (typeof STRATEGIES)[number];

/** What the agent did while one question was open: every `session_history` output, as text. */
export interface AskObservation {
  historyOutputs: readonly string[];
}

export interface AskScore {
  /** From 0 to 1. */
  score: number;
  /** Share of the evidence the `session_history` calls reached (recall-qa), from 0 to 1. */
  evidenceReached?: number;
  /** The answer key, for people reading the results. */
  expected: string;
}

export interface EvalAsk {
  text: string;
  score(answer: string, observation: AskObservation): AskScore;
}

/** Tools an item gives the agent, and what they measured when the item ends. */
export interface ItemTools {
  tools: ToolSet;
  measures(): Record<string, number>;
}

export interface EvalItem {
  suite: SuiteName;
  /** Stable across runs of the same seed and limit: `--resume` finds finished items by it. */
  id: string;
  system: string;
  /** Sent first, one `send` each; the agent only acknowledges them. */
  feed: readonly string[];
  asks: readonly EvalAsk[];
  createTools?: () => ItemTools;
  /** Rough input and output tokens of one run with strategy `rollover`, for the cost estimate. */
  estimate: { inputTokens: number; outputTokens: number };
}

export interface AnswerRecord {
  question: string;
  answer: string;
  expected: string;
  score: number;
  evidenceReached?: number;
}

export interface ItemResult {
  suite: SuiteName;
  itemId: string;
  strategy: EvalStrategy;
  /**
   * `scored`: every question was asked and scored; `blocked`: the session refused a send (strategy
   * `off` at the hard ceiling) and the questions not asked score 0; `failed`: the model or the
   * provider failed — not scored, and `--resume` runs the item again.
   */
  status: "scored" | "blocked" | "failed";
  /** Mean score of the item's questions, from 0 to 1 (0 when failed). */
  score: number;
  answers: AnswerRecord[];
  /** Mean share of the evidence reached by `session_history` (recall-qa only). */
  evidenceReached?: number;
  inputTokens: number;
  outputTokens: number;
  /** US dollars, when the model's prices are known. */
  costUsd?: number;
  wallMilliseconds: number;
  rollovers: number;
  compactions: number;
  historyCalls: number;
  /** Suite-specific counts (continuity: `documentReads`, `redundantReads`). */
  measures?: Record<string, number>;
  /** Why the item was blocked or failed, one line. */
  error?: string;
}

/** What every suite gets to draw its items. */
export interface SuiteOptions {
  contextLimit: number;
  /** Most items to draw. */
  limit: number;
  seed: number;
  /** recall-qa: a LoCoMo-format JSON file. */
  dataFile?: string;
}
