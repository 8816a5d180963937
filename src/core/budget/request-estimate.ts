/**
 * Token estimate of a fully assembled request: system text, messages, tool schemas, images and
 * the per-message framing. Messages that carry a cached `tokens` count are not tokenized again,
 * and a previous estimate of the same window lets the next one count only the messages added
 * since, so a step's check costs the same on a 100-row window as on a 100,000-row one.
 */
import { z } from "zod";
import { requirePositiveInteger, requireTokenCount } from "./budget-arguments.js";
import { applyCalibration, calibrationFactor, type CalibrationState } from "./calibration.js";
import {
  DEFAULT_FILE_TOKENS,
  DEFAULT_IMAGE_TOKENS,
  countMessageContent,
  stringify,
  type CountableMessage,
} from "./message-tokens.js";
import { countEncodedTokens, tokenizerProfileFor, type TokenizerProfile } from "./token-count.js";

/** Framing of one message (role, delimiters). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Framing of the request itself (the assistant reply primer). */
export const REQUEST_OVERHEAD_TOKENS = 3;
/** Framing of one tool definition on top of its JSON. */
export const TOOL_OVERHEAD_TOKENS = 8;
/** Charged for a tool whose input schema cannot be turned into JSON Schema here. */
export const UNKNOWN_SCHEMA_TOKENS = 256;

/** A tool as the AI SDK defines it (`inputSchema`), or a plain `{ name, description, parameters }`. */
export interface ToolDefinitionLike {
  name?: string;
  /** Text, or (AI SDK 7) a function of the tool's context: only text is counted. */
  description?: unknown;
  inputSchema?: unknown;
  parameters?: unknown;
}

export type ToolDefinitions = Readonly<Record<string, ToolDefinitionLike>> | readonly ToolDefinitionLike[];

export interface RequestEstimateInput {
  /** Model the request is for; decides the encoding and factor. Omitted: exact o200k_base. */
  model?: string | undefined;
  system?: string | readonly string[] | undefined;
  messages?: readonly CountableMessage[] | undefined;
  tools?: ToolDefinitions | undefined;
  /** Images attached outside `messages` (image parts inside messages are counted already). */
  images?: number | undefined;
  /** Session calibration; its factor for `model` is applied to the raw estimate. */
  calibration?: CalibrationState | undefined;
  /** The estimate of this window's previous request: only messages after it are counted. */
  previous?: RequestEstimate | undefined;
  imageTokens?: number | undefined;
  fileTokens?: number | undefined;
}

/** Memo that lets the next estimate of the same window skip what this one counted. */
export interface RequestEstimateMemo {
  profileKey: string;
  imageTokens: number;
  fileTokens: number;
  messageCount: number;
  lastMessage: CountableMessage | undefined;
  messageTokens: number;
  systemText: string;
  systemTokens: number;
  toolsSource: ToolDefinitions | undefined;
  toolsJson: string;
  toolsTokens: number;
}

export interface RequestEstimate {
  model: string | undefined;
  /**
   * The estimate to compare with a ceiling: raw × calibration factor, rounded up. For a model with
   * an exact tokenizer (OpenAI) calibration may raise the count but never lower it: max(raw, calibrated).
   */
  tokens: number;
  /** Before calibration: the figure to calibrate against the provider's reported input tokens. */
  rawTokens: number;
  calibrationFactor: number;
  profile: TokenizerProfile;
  /** Parts of the estimate in the model's encoding, before the provider factor. */
  breakdown: { system: number; tools: number; messages: number; images: number; overhead: number };
  messageCount: number;
  /** Messages tokenized by this call (the rest were cached or reused). */
  tokenizedMessages: number;
  memo: RequestEstimateMemo;
}

/**
 * Estimates a request. Pass the previous estimate of the same window as `previous` to count only
 * what was added since; a different model, or messages that no longer start with the ones it
 * counted, make it start over.
 *
 * @example
 * const estimate = estimateRequestTokens({ model: "openai:gpt-4.1", system: "Be brief.", messages: rows, tools });
 * const next = estimateRequestTokens({ model: "openai:gpt-4.1", system: "Be brief.", messages: [...rows, reply], tools, previous: estimate });
 */
export function estimateRequestTokens({
  model,
  system,
  messages = [],
  tools,
  images = 0,
  calibration,
  previous,
  imageTokens = DEFAULT_IMAGE_TOKENS,
  fileTokens = DEFAULT_FILE_TOKENS,
}: RequestEstimateInput): RequestEstimate {
  requireTokenCount("images", images);
  requirePositiveInteger("imageTokens", imageTokens);
  requirePositiveInteger("fileTokens", fileTokens);
  const profile = tokenizerProfileFor({ model });
  const memo = reusableMemo(previous?.memo, { profile, messages, imageTokens, fileTokens });

  let messageTokens = memo?.messageTokens ?? 0;
  let tokenizedMessages = 0;
  for (let index = memo?.messageCount ?? 0; index < messages.length; index += 1) {
    const message = messages[index] as CountableMessage;
    const cached = message.tokens;
    if (typeof cached === "number" && Number.isSafeInteger(cached) && cached >= 0) {
      messageTokens += profile.cachedFactor === 1 ? cached : Math.ceil(cached * profile.cachedFactor);
    } else {
      messageTokens += countMessageContent(message, { imageTokens, fileTokens, encoding: profile.encoding });
      tokenizedMessages += 1;
    }
    messageTokens += MESSAGE_OVERHEAD_TOKENS;
  }

  const systemText = typeof system === "string" ? system : (system ?? []).join("\n\n");
  const systemTokens =
    memo !== undefined && memo.systemText === systemText
      ? memo.systemTokens
      : countEncodedTokens(systemText, { encoding: profile.encoding });
  const { toolsJson, toolsTokens } = countTools(tools, memo, profile);

  const imageTotal = images * imageTokens;
  const overhead = REQUEST_OVERHEAD_TOKENS + (systemText.length > 0 ? MESSAGE_OVERHEAD_TOKENS : 0);
  const encodingTotal = systemTokens + toolsTokens + messageTokens + imageTotal + overhead;
  const rawTokens = profile.factor === 1 ? encodingTotal : Math.ceil(encodingTotal * profile.factor - 1e-9);
  const factor = calibrationFactor(calibration, { model });
  return {
    model,
    // An exact count is a floor: a provider or gateway reporting fewer input tokens than the
    // tokenizer counts must not let a request past the ceiling (issue 15, item 5).
    tokens: profile.exact
      ? Math.max(rawTokens, applyCalibration({ estimate: rawTokens, factor }))
      : applyCalibration({ estimate: rawTokens, factor }),
    rawTokens,
    calibrationFactor: factor,
    profile,
    breakdown: { system: systemTokens, tools: toolsTokens, messages: messageTokens, images: imageTotal, overhead },
    messageCount: messages.length,
    tokenizedMessages,
    memo: {
      profileKey: profile.key,
      imageTokens,
      fileTokens,
      messageCount: messages.length,
      lastMessage: messages[messages.length - 1],
      messageTokens,
      systemText,
      systemTokens,
      toolsSource: tools,
      toolsJson,
      toolsTokens,
    },
  };
}

function reusableMemo(
  memo: RequestEstimateMemo | undefined,
  {
    profile,
    messages,
    imageTokens,
    fileTokens,
  }: { profile: TokenizerProfile; messages: readonly CountableMessage[]; imageTokens: number; fileTokens: number },
): RequestEstimateMemo | undefined {
  if (
    memo === undefined ||
    memo.profileKey !== profile.key ||
    memo.imageTokens !== imageTokens ||
    memo.fileTokens !== fileTokens
  )
    return undefined;
  if (messages.length < memo.messageCount) return undefined;
  if (memo.messageCount === 0) return memo;
  const candidate = messages[memo.messageCount - 1];
  return candidate !== undefined && sameMessage(candidate, memo.lastMessage) ? memo : undefined;
}

function sameMessage(left: CountableMessage, right: CountableMessage | undefined): boolean {
  if (right === undefined) return false;
  if (left === right) return true;
  // Rows re-read from the store are new objects: the same session position and id is the same row.
  return left.seq !== undefined && left.seq === right.seq && left.id !== undefined && left.id === right.id;
}

function countTools(
  tools: ToolDefinitions | undefined,
  memo: RequestEstimateMemo | undefined,
  profile: TokenizerProfile,
): { toolsJson: string; toolsTokens: number } {
  if (memo !== undefined && tools === memo.toolsSource)
    return { toolsJson: memo.toolsJson, toolsTokens: memo.toolsTokens };
  const entries =
    tools === undefined
      ? []
      : Array.isArray(tools)
        ? (tools as readonly ToolDefinitionLike[]).map((tool) => [tool.name ?? "", tool] as const)
        : Object.entries(tools);
  let unknownSchemas = 0;
  const lines = entries.map(([name, tool]) => {
    const schema = jsonSchemaOf(tool);
    if (schema === undefined) unknownSchemas += 1;
    return stringify({
      name,
      description: typeof tool.description === "string" ? tool.description : "",
      parameters: schema ?? {},
    });
  });
  const toolsJson = lines.join("\n");
  if (memo !== undefined && toolsJson === memo.toolsJson) return { toolsJson, toolsTokens: memo.toolsTokens };
  const toolsTokens =
    countToolsJson(toolsJson, profile.encoding) +
    entries.length * TOOL_OVERHEAD_TOKENS +
    unknownSchemas * UNKNOWN_SCHEMA_TOKENS;
  return { toolsJson, toolsTokens };
}

/** Token counts of tool lists seen lately: a route handler makes a session per request, with the same tools. */
const toolsJsonTokens = new Map<string, number>();
const TOOLS_JSON_CACHE_ENTRIES = 32;

function countToolsJson(toolsJson: string, encoding: TokenizerProfile["encoding"]): number {
  const key = `${encoding}\n${toolsJson}`;
  const cached = toolsJsonTokens.get(key);
  if (cached !== undefined) return cached;
  const tokens = countEncodedTokens(toolsJson, { encoding });
  if (toolsJsonTokens.size >= TOOLS_JSON_CACHE_ENTRIES) toolsJsonTokens.delete(toolsJsonTokens.keys().next().value!);
  toolsJsonTokens.set(key, tokens);
  return tokens;
}

/** The JSON Schema of a tool's input: AI SDK schema wrapper, zod schema, or plain JSON Schema. */
function jsonSchemaOf(tool: ToolDefinitionLike): unknown {
  const schema = tool.inputSchema ?? tool.parameters;
  if (schema === undefined || schema === null) return {};
  if (typeof schema !== "object") return undefined;
  if (renderedSchemas.has(schema)) return renderedSchemas.get(schema);
  const rendered = renderJsonSchema(schema);
  // Not one that could not be rendered yet (a lazy schema may resolve later).
  if (rendered !== undefined) renderedSchemas.set(schema, rendered);
  return rendered;
}

/** Schemas rendered before, by schema object (the same tools come with every session of a route). */
const renderedSchemas = new WeakMap<object, unknown>();

function renderJsonSchema(schema: object): unknown {
  try {
    if ("jsonSchema" in schema) {
      const value = (schema as { jsonSchema: unknown }).jsonSchema;
      const isPromise =
        value !== null && typeof value === "object" && typeof (value as { then?: unknown }).then === "function";
      return isPromise ? undefined : value;
    }
    if ("~standard" in schema) {
      const standard = (schema as { "~standard": { vendor?: string } })["~standard"];
      return standard.vendor === "zod" ? z.toJSONSchema(schema as z.ZodType, { unrepresentable: "any" }) : undefined;
    }
  } catch {
    return undefined; // a schema that cannot be rendered is charged a fixed allowance instead
  }
  return schema;
}
