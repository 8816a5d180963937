/**
 * What one stored row contributes to the timeline: a request point (a step row), a warning, a
 * notes write or a flush step, and the tokens of tool output it holds. Reads only what ctxwin
 * itself stores in the row; never parses prompt text.
 */
import { stepSpend } from "../budget/step-spend.js";
import { readStepMetadata } from "../rollover/step-usage.js";
import type { RowPart } from "../row.js";
import type { TimelinePoint } from "./timeline-types.js";

/** The notes file the budget warning asks the agent to update (docs/design.md §1). */
export const NOTES_FILE_PATH = "/memories/workspace/context-notes.md";

const MEMORY_TOOL_PART = "tool-memory";
const WRITING_COMMANDS: ReadonlySet<string> = new Set(["create", "str_replace", "insert", "delete", "rename"]);

/** The fields of a stored row the timeline reads. */
export interface TimelineRow {
  seq: number;
  role: string;
  parts: readonly RowPart[] | readonly { type: string }[];
  createdAt: string;
  meta?: { type: string; [key: string]: unknown } | undefined;
  tokens?: number | undefined;
  metadata?: unknown;
}

/** What the timeline shows of the request a step row answered: a point without its place in the timeline. */
export type RowRequest = Omit<TimelinePoint, "seq" | "windowId" | "at" | "toolOutputTokens">;

/** The request a step row answered, or `undefined` for any other row. */
export function requestOf(row: TimelineRow): RowRequest | undefined {
  if (row.role !== "assistant") return undefined;
  const step = readStepMetadata(row);
  if (step === undefined) return undefined;
  const reported = step.usage.inputTokens;
  const estimated = step.estimatedInputTokens;
  const useReported = reported !== undefined && (reported > 0 || estimated === undefined);
  const tokens = useReported ? reported : estimated;
  if (tokens === undefined) return undefined;
  const spent = useReported ? stepSpend(step) : undefined;
  return {
    tokens: Math.round(tokens),
    source: useReported ? "reported" : "estimated",
    limit: step.contextLimit ?? null,
    outputTokens: step.usage.outputTokens ?? null,
    cacheReadTokens: step.usage.cacheReadTokens ?? null,
    cacheWriteTokens: step.usage.cacheWriteTokens ?? null,
    costUsd: spent?.cost?.usd ?? null,
    model: step.model,
  };
}

/** A budget warning row's recorded context tokens, or `undefined` for any other row. */
export function warningOf(row: TimelineRow): { tokens: number | null } | undefined {
  if (row.meta?.type !== "budget-warning") return undefined;
  const tokens = row.meta["contextTokens"];
  return { tokens: typeof tokens === "number" && Number.isFinite(tokens) ? tokens : null };
}

/** Whether the row is a notes-flush step (its own internal row type, written before a mid-turn rollover). */
export function isFlushStep(row: TimelineRow): boolean {
  return row.meta?.type === "notes-flush";
}

/** The memory command of the row that wrote the notes file (`str_replace`, `create`, …), if any. */
export function notesWriteOf(row: TimelineRow): string | undefined {
  if (row.role !== "assistant") return undefined;
  for (const part of row.parts as readonly { type: string; input?: unknown; state?: unknown; output?: unknown }[]) {
    if (part.type !== MEMORY_TOOL_PART || part.state !== "output-available" || failed(part.output)) continue;
    const input = part.input;
    if (typeof input !== "object" || input === null) continue;
    const { command, path, old_path: oldPath, new_path: newPath } = input as Record<string, unknown>;
    if (typeof command !== "string" || !WRITING_COMMANDS.has(command)) continue;
    if ([path, oldPath, newPath].includes(NOTES_FILE_PATH)) return command;
  }
  return undefined;
}

/**
 * Tokens of the tool output a row holds: the row's stored token count shared out by characters
 * (tool output characters over all counted characters), so no text is tokenized again. A row
 * without a stored count falls back to four characters a token.
 *
 * @example
 * toolOutputTokensOf({ ..., tokens: 100, parts: [{ type: "tool-read", input: {}, output: "x".repeat(300), state: "output-available" }] })
 */
export function toolOutputTokensOf(row: TimelineRow): number {
  let outputChars = 0;
  let allChars = 0;
  for (const part of row.parts as readonly Record<string, unknown>[]) {
    const type = String(part["type"]);
    if (type === "text" || type === "reasoning") {
      allChars += typeof part["text"] === "string" ? part["text"].length : 0;
      continue;
    }
    if (type !== "dynamic-tool" && !type.startsWith("tool-")) continue;
    allChars += textLength(part["input"]);
    const output = part["output"] ?? part["errorText"];
    const length = textLength(output);
    outputChars += length;
    allChars += length;
  }
  if (outputChars === 0) return 0;
  if (row.tokens === undefined || allChars === 0) return Math.ceil(outputChars / 4);
  return Math.round((row.tokens * outputChars) / allChars);
}

/** A memory result that reports an error (`{status: "error"}`) wrote nothing. */
function failed(output: unknown): boolean {
  return typeof output === "object" && output !== null && (output as { status?: unknown }).status === "error";
}

function textLength(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === "string") return value.length;
  return JSON.stringify(value)?.length ?? 0;
}
