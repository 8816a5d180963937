/**
 * A session under a small, exact budget for rollover tests: a 20,000-token limit (hard ceiling
 * 15,000; warn from 12,000; on-send rollover from 14,000; force band from 15,000) and a token count
 * of one token per four characters, so the figures a test plans are the figures the session sees.
 */
import type { LanguageModel, ToolSet } from "ai";
import type { HistoryStore } from "../../store/port.js";
import { createBudgetPolicy } from "../budget-policy.js";
import { createAgentSession } from "../create-agent-session.js";
import type { AgentSessionOptions, SessionBudgetOptions } from "../session-types.js";
import { deterministic } from "./session-fixture.js";

export const LIMIT = 20_000;
export const CEILING = 15_000;
export const THRESHOLD_AT = 14_000;
export const WARN_AT = 12_000;
export const FORCE_AT = 15_000;

export const countQuarter = (text: string) => Math.ceil(text.length / 4);

/**
 * A system prompt of exactly `tokens` tokens (at four characters per token). Tests that script a
 * large reported input use it so that the request really is about that large: the session learns
 * a calibration factor from reported / estimated, and an implausible ratio would skew it.
 */
export const systemOfTokens = (tokens: number) => "x".repeat(Math.max(0, tokens) * 4);

/**
 * @example
 * const session = budgetSession({ store, model, tools });
 */
export function budgetSession({
  store,
  model,
  tools,
  settings = {},
  ...rest
}: { store: HistoryStore; model: LanguageModel; tools?: ToolSet; settings?: SessionBudgetOptions } & Partial<Omit<AgentSessionOptions, "store" | "model" | "tools">>) {
  const budget = { contextLimit: LIMIT, ...settings };
  return createAgentSession({
    store,
    sessionId: "s",
    model,
    ...(tools === undefined ? {} : { tools }),
    budget,
    budgetPolicy: createBudgetPolicy({ settings: budget, primaryModel: model, countTokens: countQuarter }),
    ...deterministic(),
    ...rest,
  });
}
