/**
 * Builds one provider request from stored rows: system prompt + hot memories + tools + the provider
 * slice of the active window (plus the steps of the running turn). Stored rows are never rewritten;
 * oversized tool outputs are replaced by a view in the request only. The estimate of the request is
 * the budget engine's (`estimateRequestTokens`), for the model the request goes to.
 */
import { convertToModelMessages, type ModelMessage, type Tool, type ToolSet, type UIMessage } from "ai";
import { applyCalibration, type CalibrationState } from "../core/budget/calibration.js";
import type { CountableMessage } from "../core/budget/message-tokens.js";
import { estimateRequestTokens, type RequestEstimate } from "../core/budget/request-estimate.js";
import { providerSlice } from "../core/windows.js";
import type { StoredRow } from "../store/port.js";
import { requestRows, sentRowTokens, type ToolOutputLimits } from "./row-tokens.js";

export type { ToolOutputLimits } from "./row-tokens.js";

export interface RequestFrame {
  /** Catalog key of the model the request is for (`openai:gpt-4o`); decides how tokens are counted. */
  model: string;
  /** The system prompt the session was created with. */
  system: string | undefined;
  /** The rendered `<hot_memories>` block ('' when empty). */
  hotMemories: string;
  tools: ToolSet;
  /** Estimate of the request without any message (system text, tool definitions, framing). */
  overhead: RequestEstimate;
  /** The model's token count of a text (the budget engine's `countTokens`). */
  countTokens: (text: string) => number;
  /** The session's calibration, applied by the request estimate. */
  calibration: CalibrationState;
  /** Multiplier for our estimates of this model, learned from the provider's reports (1 until calibrated). */
  calibrationFactor: number;
}

export interface AssembledRequest {
  system: string | undefined;
  messages: ModelMessage[];
  /** Estimate of the whole request (overhead plus every row as sent), calibrated. */
  estimatedTokens: number;
  /** The same before calibration: what calibration learns from. */
  rawEstimatedTokens: number;
  /** The budget engine's estimate; pass it as `previous` for the next request of this window. */
  estimate: RequestEstimate;
}

/**
 * The system text of a request: the session's system prompt followed by the hot memories block.
 *
 * @example systemText({ system: "You are terse.", hotMemories: "" }) // "You are terse."
 */
export function systemText({ system, hotMemories }: Pick<RequestFrame, "system" | "hotMemories">): string | undefined {
  const pieces = [system, hotMemories].filter((piece): piece is string => piece !== undefined && piece.length > 0);
  return pieces.length === 0 ? undefined : pieces.join("\n\n");
}

/**
 * Tokens of everything around the rows (system prompt, hot memories, tool definitions, framing),
 * before calibration.
 *
 * @example overheadTokens(frame) // 1_250
 */
export function overheadTokens(frame: RequestFrame): number {
  return frame.overhead.rawTokens;
}

/**
 * Tokens one row adds to a request of this frame as it is sent (its view; message framing and
 * the model's factor included), before calibration.
 *
 * @example rowRequestTokens(row, frame, limits)
 */
export function rowRequestTokens(
  row: Pick<StoredRow, "seq" | "role" | "parts" | "tokens">,
  frame: RequestFrame,
  limits: ToolOutputLimits,
): number {
  return sentRowTokens({ row, model: frame.model, countTokens: frame.countTokens, limits });
}

/**
 * @example
 * const request = await assembleRequest({ rows: window.rows, frame, limits });
 * streamText({ model, system: request.system, messages: request.messages, tools: frame.tools });
 * const next = await assembleRequest({ rows: [...window.rows, step], frame, limits, previous: request.estimate });
 */
export async function assembleRequest({
  rows,
  frame,
  limits,
  previous,
}: {
  rows: readonly StoredRow[];
  frame: RequestFrame;
  limits: ToolOutputLimits;
  /** The estimate of this window's previous request for the same model: only rows added since are counted. */
  previous?: RequestEstimate | undefined;
}): Promise<AssembledRequest> {
  const { rows: sent, views } = requestRows({ rows: providerSlice(rows), countTokens: frame.countTokens, limits });
  const system = systemText(frame);
  const estimate = estimateRequestTokens({
    model: frame.model,
    system,
    messages: sent as unknown as CountableMessage[],
    tools: frame.tools,
    calibration: frame.calibration,
    previous: previous ?? frame.overhead,
  });
  const messages = await convertToModelMessages(sent.map(toUIMessage), {
    tools: conversionTools(frame.tools, views),
    ignoreIncompleteToolCalls: true,
  });
  return { system, messages, estimatedTokens: estimate.tokens, rawEstimatedTokens: estimate.rawTokens, estimate };
}

/**
 * An estimate times the calibration factor, rounded up.
 *
 * @example calibrate(1_000, 1.125) // 1_125
 */
export function calibrate(estimate: number, factor: number): number {
  return applyCalibration({ estimate, factor });
}

function toUIMessage(row: StoredRow): UIMessage {
  const message: UIMessage = { id: row.id, role: row.role, parts: row.parts };
  return row.metadata === undefined ? message : { ...message, metadata: row.metadata };
}

/**
 * The tools as `convertToModelMessages` sees them: a viewed output becomes plain text; any other
 * output goes through the tool's own `toModelOutput`, or the SDK's default (text or JSON).
 */
function conversionTools(tools: ToolSet, views: ReadonlyMap<string, string>): ToolSet {
  if (views.size === 0) return tools;
  const converted: ToolSet = {};
  for (const [name, definition] of Object.entries(tools)) {
    const original = definition.toModelOutput;
    const toModelOutput: Tool["toModelOutput"] = async (options) => {
      const view = views.get(options.toolCallId);
      if (view !== undefined) return { type: "text", value: view };
      if (original !== undefined) return original(options);
      return typeof options.output === "string"
        ? { type: "text", value: options.output }
        : { type: "json", value: (options.output ?? null) as never };
    };
    converted[name] = { ...definition, toModelOutput } as Tool;
  }
  return converted;
}
