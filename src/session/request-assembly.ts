/**
 * Builds one provider request from stored rows: system prompt + hot memories + tools + the provider
 * slice of the active window (plus the steps of the running turn). Stored rows are never rewritten;
 * oversized tool outputs are replaced by a view in the request only.
 */
import { convertToModelMessages, type ModelMessage, type Tool, type ToolSet, type UIMessage } from "ai";
import { viewOversizedToolOutputs } from "../core/rollover/tool-output-view.js";
import { providerSlice } from "../core/windows.js";
import type { StoredRow } from "../store/port.js";
import { estimateRowTokens } from "./row-tokens.js";

export interface RequestFrame {
  /** The system prompt the session was created with. */
  system: string | undefined;
  /** The rendered `<hot_memories>` block ('' when empty). */
  hotMemories: string;
  tools: ToolSet;
  /** Estimated tokens of the tool definitions. */
  toolTokens: number;
  countTokens: (text: string) => number;
  /** Multiplier for our estimates, learned from the provider's reports (1 until calibrated). */
  calibrationFactor: number;
}

export interface ToolOutputLimits {
  /** A tool output above this many tokens is shown as a truncated view. */
  maxOutputTokens: number;
  headChars: number;
}

export interface AssembledRequest {
  system: string | undefined;
  messages: ModelMessage[];
  /** Estimate of the whole request (overhead plus every row as sent), calibrated. */
  estimatedTokens: number;
  /** The same before calibration: what calibration learns from. */
  rawEstimatedTokens: number;
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
 * Tokens of everything around the rows: system prompt, hot memories and tool definitions.
 *
 * @example overheadTokens(frame) // 1_250
 */
export function overheadTokens(frame: RequestFrame): number {
  const system = systemText(frame);
  return (system === undefined ? 0 : frame.countTokens(system)) + frame.toolTokens;
}

/**
 * Tokens of one row as it is sent: its cached `tokens` when present, else an estimate of its view.
 *
 * @example rowRequestTokens(row, frame.countTokens, limits)
 */
export function rowRequestTokens(row: Pick<StoredRow, "seq" | "parts" | "tokens">, countTokens: (text: string) => number, limits: ToolOutputLimits): number {
  if (row.tokens !== undefined) return row.tokens;
  const { rows } = viewOversizedToolOutputs({ rows: [row], countTokens, ...limits });
  return estimateRowTokens(rows[0] ?? row, countTokens);
}

/**
 * @example
 * const request = await assembleRequest({ rows: window.rows, frame, limits });
 * streamText({ model, system: request.system, messages: request.messages, tools: frame.tools });
 */
export async function assembleRequest({ rows, frame, limits }: { rows: readonly StoredRow[]; frame: RequestFrame; limits: ToolOutputLimits }): Promise<AssembledRequest> {
  const slice = providerSlice(rows);
  const { rows: viewed, views } = viewOversizedToolOutputs({ rows: slice, countTokens: frame.countTokens, ...limits });
  let estimatedTokens = overheadTokens(frame);
  for (const row of viewed) estimatedTokens += row.tokens !== undefined ? row.tokens : estimateRowTokens(row, frame.countTokens);
  const messages = await convertToModelMessages(viewed.map(toUIMessage), {
    tools: conversionTools(frame.tools, views),
    ignoreIncompleteToolCalls: true,
  });
  return { system: systemText(frame), messages, estimatedTokens: calibrate(estimatedTokens, frame.calibrationFactor), rawEstimatedTokens: estimatedTokens };
}

/**
 * An estimate times the calibration factor, rounded up.
 *
 * @example calibrate(1_000, 1.125) // 1_125
 */
export function calibrate(estimate: number, factor: number): number {
  return factor === 1 ? estimate : Math.ceil(estimate * factor - 1e-9);
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
      return typeof options.output === "string" ? { type: "text", value: options.output } : { type: "json", value: (options.output ?? null) as never };
    };
    converted[name] = { ...definition, toModelOutput } as Tool;
  }
  return converted;
}
