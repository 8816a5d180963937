/**
 * Token estimates of what a request carries: rows as they are sent (their view, with oversized
 * tool outputs replaced) and the overhead around them (system prompt, hot memories, tool schemas).
 * Each stored row caches its estimate in `tokens`, so a step's budget check does not re-count the
 * window.
 */
import { asSchema, type ToolSet } from "ai";
import { toolNameOf } from "../core/row-text.js";

/** Tokens assumed for one image (DESIGN.md §5). */
export const IMAGE_TOKENS = 1024;
const MESSAGE_OVERHEAD = 4;
const TOOL_PART_OVERHEAD = 8;

interface CountablePart {
  type: string;
  [key: string]: unknown;
}

/**
 * Estimated tokens of one row as sent.
 *
 * @example
 * estimateRowTokens({ parts: [{ type: "text", text: "hello" }] }, countTokens)
 */
export function estimateRowTokens(row: { parts: readonly CountablePart[] }, countTokens: (text: string) => number): number {
  let total = MESSAGE_OVERHEAD;
  for (const part of row.parts) total += estimatePartTokens(part, countTokens);
  return total;
}

function estimatePartTokens(part: CountablePart, countTokens: (text: string) => number): number {
  if (part.type === "text" || part.type === "reasoning") return typeof part["text"] === "string" ? countTokens(part["text"]) : 0;
  if (part.type === "file") {
    const mediaType = String(part["mediaType"] ?? "");
    if (mediaType.startsWith("image/")) return IMAGE_TOKENS;
    const url = String(part["url"] ?? "");
    return Math.max(IMAGE_TOKENS, Math.ceil(url.length / 4));
  }
  const toolName = toolNameOf(part);
  if (toolName === undefined) return 0;
  let total = TOOL_PART_OVERHEAD + countTokens(toolName) + countTokens(stringify(part["input"]));
  if (part["state"] === "output-available") total += countTokens(stringify(part["output"]));
  else if (part["state"] === "output-error") total += countTokens(String(part["errorText"] ?? ""));
  return total;
}

/**
 * Estimated tokens of the tool definitions a request carries (names, descriptions, input schemas).
 *
 * @example
 * await estimateToolSetTokens(tools, countTokens)
 */
export async function estimateToolSetTokens(tools: ToolSet, countTokens: (text: string) => number): Promise<number> {
  let total = 0;
  for (const [name, definition] of Object.entries(tools)) {
    const schema = definition.inputSchema === undefined ? {} : await asSchema(definition.inputSchema).jsonSchema;
    total += TOOL_PART_OVERHEAD + countTokens(name) + countTokens(definition.description ?? "") + countTokens(JSON.stringify(schema));
  }
  return total;
}

function stringify(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}
