/**
 * What Claude Code's lines hold, as row parts: content blocks (text, thinking, images, tool calls
 * and results), the `attachment` lines that carry content (a file the user attached), slash
 * commands and their output, the replies Claude Code writes itself (`<synthetic>`: "No response
 * requested.", "API Error: …"), and the usage the API reported for a message.
 */
import type { RowPart } from "../core/row.js";
import { stepMetadata, type StepMetadata } from "../core/rollover/step-usage.js";
import type { CallPairing } from "./call-pairing.js";
import type { Json } from "./source-format.js";
import { cutInput, cutText, imagePlaceholder, mediaPart, toolPart } from "./transcript-rows.js";

/** Attachment types that only list what Claude Code offers (agents, skills): not transcript content. */
export const LISTING_ATTACHMENTS = new Set(["agent_listing_delta", "skill_listing"]);

/** Attachment types holding a hook's output (ctxwin's SessionStart guidance among them): hidden metadata rows. */
export const HOOK_ATTACHMENTS = new Set(["hook_success", "hook_additional_context"]);

export interface BlockParts {
  parts: RowPart[];
  /** Calls among the parts that wait for their result. */
  waiting: Set<string>;
  /** Results that went into their call's row. */
  paired: number;
  /** Results whose call is not among the lines read (kept as parts of their own). */
  orphans: number;
  /** Blocks of a type the importer does not know. */
  unknownBlocks: boolean;
}

const KNOWN_BLOCKS = new Set(["text", "thinking", "image", "document", "tool_use", "tool_result"]);

/** `childSession`: the sub-agent session the line's tool result started; its call's row names it (ADR 0067). */
export function partsOf(
  content: string | unknown[],
  queue: CallPairing,
  { childSession }: { childSession?: string | undefined } = {},
): BlockParts {
  const result: BlockParts = { parts: [], waiting: new Set(), paired: 0, orphans: 0, unknownBlocks: false };
  for (const block of typeof content === "string" ? [{ type: "text", text: content }] : (content as Json[])) {
    if (typeof block !== "object" || block === null) continue;
    const type = block["type"];
    if (type === "text" && typeof block["text"] === "string")
      result.parts.push({ type: "text", text: cutText(block["text"]) });
    else if (type === "thinking" && typeof block["thinking"] === "string")
      result.parts.push({ type: "reasoning", text: cutText(block["thinking"]) });
    else if (type === "image" || type === "document") result.parts.push(mediaOf(block));
    else if (type === "tool_use" && typeof block["id"] === "string") {
      const toolName = typeof block["name"] === "string" && block["name"] !== "" ? block["name"] : "tool";
      result.parts.push(toolPart({ toolName, toolCallId: block["id"], input: cutInput(block["input"] ?? {}) }));
      result.waiting.add(block["id"]);
    } else if (type === "tool_result" && typeof block["tool_use_id"] === "string") {
      const call = {
        callId: block["tool_use_id"],
        output: textOf(block["content"]) ?? "",
        isError: block["is_error"] === true,
      };
      if (queue.resolve(call, { childSession })) result.paired += 1;
      else {
        result.orphans += 1;
        result.parts.push(
          toolPart({
            toolName: "tool",
            toolCallId: call.callId,
            input: {},
            output: call.output,
            isError: call.isError,
          }),
        );
      }
    } else if (typeof type === "string" && !KNOWN_BLOCKS.has(type)) result.unknownBlocks = true;
  }
  return result;
}

/** A user line that is a slash command (`<command-name>/compact</command-name>…`) or its output. */
export type CommandLine = { kind: "command"; name: string; args: string } | { kind: "output"; text: string };

export function commandLineOf(content: unknown): CommandLine | undefined {
  const text = typeof content === "string" ? content : textOf(content);
  if (text === undefined) return undefined;
  const name = /^\s*<command-name>([\s\S]*?)<\/command-name>/.exec(text)?.[1]?.trim();
  if (name !== undefined && name !== "")
    return { kind: "command", name, args: /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim() ?? "" };
  const output = /^\s*<local-command-(?:stdout|stderr)>([\s\S]*?)<\/local-command-(?:stdout|stderr)>\s*$/.exec(
    text,
  )?.[1];
  return output === undefined ? undefined : { kind: "output", text: output };
}

/** The text of a `file` attachment (a file the user attached with @), or undefined for other attachments. */
export function fileAttachmentText(attachment: Json): string | undefined {
  if (attachment["type"] !== "file") return undefined;
  const content = attachment["content"] as Json | undefined;
  const file = content?.["file"] as Json | undefined;
  const text =
    typeof file?.["content"] === "string"
      ? file["content"]
      : typeof content?.["content"] === "string"
        ? content["content"]
        : undefined;
  if (text === undefined) return undefined;
  const name =
    [attachment["displayPath"], attachment["filename"], file?.["filePath"]].find(
      (value): value is string => typeof value === "string" && value !== "",
    ) ?? "file";
  return `[attached ${name}]\n${cutText(text)}`;
}

/** A reply Claude Code wrote itself rather than the model: an API error, or "No response requested.". */
export function syntheticReplyOf(value: Json, message: Json | undefined): "api-error" | "notice" | undefined {
  if (message?.["model"] !== "<synthetic>" && value["isApiErrorMessage"] !== true) return undefined;
  const text = textOf(message?.["content"]) ?? "";
  return value["isApiErrorMessage"] === true || /^API Error\b/.test(text) ? "api-error" : "notice";
}

/** The usage the API reported for an assistant message, as ctxwin's step metadata. */
export function stepUsageOf(message: Json | undefined): { ctxwinStep: StepMetadata } | undefined {
  const usage = message?.["usage"] as Json | undefined;
  const model = message?.["model"];
  if (usage === undefined || typeof model !== "string" || model === "<synthetic>") return undefined;
  const count = (key: string) =>
    typeof usage[key] === "number" && Number.isSafeInteger(usage[key]) && (usage[key] as number) >= 0
      ? (usage[key] as number)
      : 0;
  const cacheReadTokens = count("cache_read_input_tokens");
  const cacheWriteTokens = count("cache_creation_input_tokens");
  return stepMetadata({
    usage: {
      inputTokens: count("input_tokens") + cacheWriteTokens + cacheReadTokens,
      outputTokens: count("output_tokens"),
      cacheReadTokens,
      cacheWriteTokens,
    },
    model: `anthropic:${model}`,
  });
}

/** Text of a message content (a string or blocks); images inside become placeholders. */
export function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  return (content as Json[])
    .map((block) => {
      if (block?.["type"] === "text" && typeof block["text"] === "string") return block["text"];
      if (block?.["type"] === "image") return (imageOf(block) as { text: string }).text;
      return "";
    })
    .filter((text) => text !== "")
    .join("\n");
}

function imageOf(block: Json): RowPart {
  const source = block["source"] as Json | undefined;
  const data = source?.["data"];
  return imagePlaceholder(
    typeof source?.["media_type"] === "string" ? source["media_type"] : undefined,
    typeof data === "string" ? data.length : undefined,
  );
}

/** An `image` or `document` block as a file part: its base64 bytes or its URL (a text document stays text). */
function mediaOf(block: Json): RowPart {
  const source = block["source"] as Json | undefined;
  const string = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  if (source?.["type"] === "text" && typeof source["data"] === "string")
    return { type: "text", text: cutText(source["data"]) };
  const mediaType = string(source?.["media_type"]) ?? (block["type"] === "document" ? "application/pdf" : "image/*");
  return mediaPart({
    mediaType,
    data: source?.["type"] === "base64" ? string(source["data"]) : undefined,
    url: string(source?.["url"]),
    filename: string(block["title"]),
  });
}
