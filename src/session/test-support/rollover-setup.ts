/**
 * A session under a small budget for rollover tests: a 20,000-token limit (hard ceiling 15,000;
 * warn from 12,000; on-send rollover from 14,000; force band from 15,000). Tokens are counted the
 * way the session counts them in production, by the budget engine: the scripted models' provider
 * (`mock`) is not a known one, so their estimates are the o200k_base count × 1.3.
 */
import { APICallError, type LanguageModel, type ToolSet } from "ai";
import { countEncodedTokens, tokenizerProfileFor } from "../../core/budget/token-count.js";
import type { HistoryStore } from "../../store/port.js";
import { createAgentSession } from "../create-agent-session.js";
import type { AgentSessionOptions, SessionBudgetOptions } from "../session-types.js";
import { scriptedModel, type Script, type ScriptedStep } from "./scripted-model.js";
import { deterministic, memoryStore, readTool } from "./session-fixture.js";

export const LIMIT = 20_000;
export const CEILING = 15_000;
export const THRESHOLD_AT = 14_000;
export const WARN_AT = 12_000;
export const FORCE_AT = 15_000;

/** The budget engine's factor for the scripted models (an unknown provider). */
export const SCRIPTED_MODEL_FACTOR = tokenizerProfileFor({ model: "mock:scripted" }).factor;

/**
 * Text the session estimates at about `tokens` tokens for a scripted model: `unit` (a word) repeated,
 * space-separated, as many times as its o200k_base count and the scripted models' factor allow.
 *
 * @example textOfTokens(1_000, "AAAA") // "AAAA AAAA ..." (~1,000 tokens by the session's count)
 */
export function textOfTokens(tokens: number, unit = "word"): string {
  const perUnit = countEncodedTokens(` ${unit}`) * SCRIPTED_MODEL_FACTOR;
  return Array.from({ length: Math.max(0, Math.round(tokens / perUnit)) }, () => unit).join(" ");
}

/**
 * A system prompt of about `tokens` tokens. Tests that script a large reported input use it so
 * that the request really is about that large: the session learns a calibration factor from
 * reported / estimated, and an implausible ratio would skew it.
 */
export const systemOfTokens = (tokens: number) => textOfTokens(tokens);

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
}: { store: HistoryStore; model: LanguageModel; tools?: ToolSet; settings?: SessionBudgetOptions } & Partial<
  Omit<AgentSessionOptions, "store" | "model" | "tools">
>) {
  const budget = { contextLimit: LIMIT, ...settings };
  return createAgentSession({
    store,
    sessionId: "s",
    model,
    ...(tools === undefined ? {} : { tools }),
    budget,
    ...deterministic(),
    ...rest,
  });
}

/**
 * A budget session whose `read` tool returns a 1,000-character `a.txt`, and whose budget warning
 * waits for the next input unless the turn has 500 tokens left.
 *
 * @example const session = readingSession({ store, model });
 */
export const readingSession = ({ store, model }: { store: HistoryStore; model: LanguageModel }) =>
  budgetSession({
    store,
    model,
    tools: { read: readTool({ "a.txt": "A".repeat(1_000) }) },
    settings: { warningTurnTokens: 500 },
  });

/** Two files of 2,000 characters each: read in one step, their results add about 1,000 tokens to the next request. */
export const twoFiles = { "a.txt": "A".repeat(2_000), "b.txt": "B".repeat(2_000) };

/** A step that reads both of {@link twoFiles}. */
export const readBoth = {
  toolCalls: [
    { toolName: "read", input: { path: "a.txt" } },
    { toolName: "read", input: { path: "b.txt" } },
  ],
};

/**
 * The script of a rollover after a settled step: a step just under the force band reads both files, their results
 * push the next request over it, and `answer` (reported at `answerTokens`) is the reply in the fresh window.
 *
 * @example const { session } = twoFilesSession(readBothPastForceBand("finished"));
 */
export const readBothPastForceBand = (answer: string, answerTokens = 800): ScriptedStep[] => [
  { ...readBoth, inputTokens: FORCE_AT - 400 },
  { text: answer, inputTokens: answerTokens },
];

/**
 * A budget session (over a fresh memory store unless `store` is given) whose scripted model plays `script`; `calls`
 * records what the model received.
 *
 * @example const { store, calls, session } = scriptedBudgetSession([{ text: "ok" }], { toolPolicy: { allow: [] } });
 */
export function scriptedBudgetSession(
  script: Script,
  {
    store = memoryStore(),
    ...options
  }: Omit<Parameters<typeof budgetSession>[0], "store" | "model"> & {
    store?: HistoryStore;
  } = {},
) {
  const { model, calls } = scriptedModel({ script });
  const session = budgetSession({ store, model, ...options });
  return { store, calls, session };
}

/**
 * A {@link scriptedBudgetSession} whose `read` tool serves {@link twoFiles}.
 *
 * @example const { store, calls, session } = twoFilesSession(readBothPastForceBand("finished"));
 */
export const twoFilesSession = (
  script: Script,
  options: Omit<Parameters<typeof scriptedBudgetSession>[1], "tools"> = {},
) => scriptedBudgetSession(script, { tools: { read: readTool(twoFiles) }, ...options });

/**
 * Hot memories that render nothing until `grow()` is called, then about `tokens` tokens of notes: notes that grow
 * during a turn, so that a fresh window has less room than the window the turn began in.
 *
 * @example const notes = growingHotMemories(2_000); budgetSession({ store, model, hotMemories: notes.hotMemories });
 */
export function growingHotMemories(tokens: number) {
  let grown = false;
  const hotMemories = {
    mode: "read-write" as const,
    render: async () => (grown ? `<hot_memories>${textOfTokens(tokens, "note")}</hot_memories>` : ""),
  };
  return { hotMemories, grow: () => void (grown = true) };
}

/** What an OpenAI-compatible server answers a request over this budget's 20,000-token window. */
export function tooLong(): APICallError {
  return new APICallError({
    message: "Bad Request",
    url: "http://127.0.0.1:1/v1/chat/completions",
    requestBodyValues: {},
    statusCode: 400,
    responseBody: JSON.stringify({
      error: {
        message: "This model's maximum context length is 20000 tokens.",
        type: "invalid_request_error",
        code: "context_length_exceeded",
      },
    }),
    isRetryable: false,
  });
}
