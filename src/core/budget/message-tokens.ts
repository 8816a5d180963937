/**
 * Tokens of one message's content: a transcript row (AI SDK `UIMessage` parts) or an assembled
 * `ModelMessage` (`content` string or parts). Text, reasoning, tool inputs and outputs are
 * tokenized; images and other files get fixed estimates. `countRowTokens` is the number a row
 * caches in its `tokens` field when it is stored (o200k_base, model-independent).
 */
import { stringifyValue } from "../row-text.js";
import { countEncodedTokens, type TokenEncodingName } from "./token-count.js";

/** Estimated tokens of one image (a typical high-detail image on current providers). */
export const DEFAULT_IMAGE_TOKENS = 1024;

/**
 * Estimated tokens of one non-image, non-text file (a PDF, audio): about one document page with
 * its page image. Multi-page documents are undercounted until the provider reports usage.
 */
export const DEFAULT_FILE_TOKENS = 4096;

/** Framing of one tool call or tool result (names, ids, delimiters). */
export const TOOL_PART_OVERHEAD_TOKENS = 4;

interface PartLike {
  type: string;
  [key: string]: unknown;
}

/** What `estimateRequestTokens` accepts as a message: a row / UI message, or a model message. */
export interface CountableMessage {
  role: string;
  /** Transcript row / UI message parts. */
  parts?: readonly PartLike[];
  /** Model message content. */
  content?: string | readonly PartLike[];
  /** Cached o200k_base count of the content (`countRowTokens`), reused instead of re-tokenizing. */
  tokens?: number;
  seq?: number;
  id?: string;
}

export interface ContentTokenOptions {
  imageTokens?: number;
  fileTokens?: number;
  encoding?: TokenEncodingName;
}

/**
 * The token count a row caches in `tokens`: its provider-visible content in o200k_base, plus
 * image, file and tool-framing estimates. Ignores any `tokens` already on the row.
 *
 * @example
 * countRowTokens({ role: "user", parts: [{ type: "text", text: "hello world" }] }) // 2
 */
export function countRowTokens(
  message: CountableMessage,
  { imageTokens = DEFAULT_IMAGE_TOKENS, fileTokens = DEFAULT_FILE_TOKENS }: Omit<ContentTokenOptions, "encoding"> = {},
): number {
  return countMessageContent(message, { imageTokens, fileTokens, encoding: "o200k_base" });
}

/**
 * Content tokens of a message in one encoding (no per-message framing).
 *
 * @example
 * countMessageContent({ role: "user", content: "hello world" }, { encoding: "cl100k_base" }) // 2
 */
export function countMessageContent(
  message: CountableMessage,
  {
    imageTokens = DEFAULT_IMAGE_TOKENS,
    fileTokens = DEFAULT_FILE_TOKENS,
    encoding = "o200k_base",
  }: ContentTokenOptions = {},
): number {
  const tally: Tally = { texts: [], images: 0, files: 0, toolParts: 0 };
  if (Array.isArray(message.parts)) for (const part of message.parts) addUiPart(tally, part);
  if (typeof message.content === "string") tally.texts.push(message.content);
  else if (Array.isArray(message.content)) for (const part of message.content) addModelPart(tally, part);
  const textTokens = countEncodedTokens(tally.texts.join("\n"), { encoding });
  return (
    textTokens + tally.images * imageTokens + tally.files * fileTokens + tally.toolParts * TOOL_PART_OVERHEAD_TOKENS
  );
}

interface Tally {
  texts: string[];
  images: number;
  files: number;
  toolParts: number;
}

function addUiPart(tally: Tally, part: PartLike): void {
  if (part === null || typeof part !== "object" || typeof part.type !== "string") return;
  const type = part.type;
  if (type === "text" || type === "reasoning") {
    if (typeof part["text"] === "string") tally.texts.push(part["text"]);
    return;
  }
  if (type === "file") {
    addFile(tally, stringField(part, "mediaType"), part["url"]);
    return;
  }
  const toolName =
    type === "dynamic-tool"
      ? stringField(part, "toolName")
      : type.startsWith("tool-")
        ? type.slice("tool-".length)
        : undefined;
  if (toolName === undefined) return; // step-start, data-*, source-* parts are not sent as content
  tally.toolParts += 1;
  tally.texts.push(toolName, stringify(part["input"]));
  if (part["state"] === "output-available") tally.texts.push(stringify(part["output"]));
  else if (part["state"] === "output-error") tally.texts.push(stringField(part, "errorText") ?? "");
}

function addModelPart(tally: Tally, part: PartLike): void {
  if (part === null || typeof part !== "object") return;
  switch (part.type) {
    case "text":
    case "reasoning":
      if (typeof part["text"] === "string") tally.texts.push(part["text"]);
      return;
    case "image":
      tally.images += 1;
      return;
    case "file":
      addFile(tally, stringField(part, "mediaType"), part["data"]);
      return;
    case "tool-call":
      tally.toolParts += 1;
      tally.texts.push(stringField(part, "toolName") ?? "", stringify(part["input"]));
      return;
    case "tool-result":
      tally.toolParts += 1;
      tally.texts.push(stringField(part, "toolName") ?? "");
      addToolOutput(tally, part["output"]);
      return;
    default:
      return;
  }
}

function addToolOutput(tally: Tally, output: unknown): void {
  if (output === null || typeof output !== "object") {
    tally.texts.push(stringify(output));
    return;
  }
  const record = output as Record<string, unknown>;
  if (record["type"] === "content" && Array.isArray(record["value"])) {
    for (const item of record["value"] as unknown[]) {
      if (item === null || typeof item !== "object") continue;
      const entry = item as Record<string, unknown>;
      if (entry["type"] === "text" && typeof entry["text"] === "string") tally.texts.push(entry["text"]);
      else if (typeof entry["mediaType"] === "string" && entry["mediaType"].startsWith("image/")) tally.images += 1;
      else if (String(entry["type"]).startsWith("image")) tally.images += 1;
      else tally.files += 1;
    }
    return;
  }
  tally.texts.push("value" in record ? stringify(record["value"]) : stringify(output));
}

const TEXT_MEDIA = /^(?:text\/|application\/(?:json|xml|javascript|x-yaml|yaml|x-ndjson)\b)/;

function addFile(tally: Tally, mediaType: string | undefined, data: unknown): void {
  const type = (mediaType ?? "").toLowerCase();
  if (type.startsWith("image/")) {
    tally.images += 1;
    return;
  }
  const text = TEXT_MEDIA.test(type) ? decodeText(data) : undefined;
  if (text === undefined) tally.files += 1;
  else tally.texts.push(text);
}

/** The text of an inline text file (a `data:` URL, base64 string or bytes), else `undefined`. */
function decodeText(data: unknown): string | undefined {
  try {
    if (data instanceof Uint8Array) return new TextDecoder().decode(data);
    if (typeof data !== "string") return undefined;
    const comma = data.indexOf(",");
    if (data.startsWith("data:") && comma > 0) {
      const header = data.slice(0, comma);
      const body = data.slice(comma + 1);
      return header.endsWith(";base64") ? decodeBase64(body) : decodeURIComponent(body);
    }
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(data)) return undefined; // a remote URL: size unknown
    return decodeBase64(data);
  } catch {
    return undefined; // not decodable: counted as a file
  }
}

function decodeBase64(base64: string): string {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return new TextDecoder().decode(bytes);
}

function stringField(part: PartLike, key: string): string | undefined {
  const value = part[key];
  return typeof value === "string" ? value : undefined;
}

/** JSON of a tool input or output as a provider would receive it; never throws (`stringifyValue`). */
export function stringify(value: unknown): string {
  return stringifyValue(value);
}
