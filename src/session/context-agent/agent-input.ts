/**
 * What an `Agent` call brings that is new: ctxwin keeps the conversation in the store, so of the
 * `prompt` or `messages` a caller passes (the whole chat, when `useChat` sent it) only the last
 * user message is taken. The request is built from the store's window, never from the caller's
 * copy, so a client cannot inject or bring back rows. Anything else as the last message (a tool
 * approval, a client-side tool result) is refused, as is an input over the size limit.
 */
import type { ModelMessage, UserModelMessage } from "ai";
import { errorClass } from "../../core/errors.js";
import { fileDataProblem } from "../../core/file-data.js";
import type { RowPart } from "../../core/row.js";
import type { SendInput } from "../session-types.js";

/** Characters of text one new user message may hold (default of `createContextAgent`'s `maxInputChars`). */
export const MAX_INPUT_CHARS = 1_000_000;

/** A call the agent cannot take as it is; nothing was written. A route answers it with HTTP 400. */
export class AgentInputError extends errorClass("CtxwinAgentInputError") {}

/**
 * The new input of a call, and the messages before it (for `checkClientHistory`).
 *
 * @example newInputOf({ prompt: "Fix the build" }) // { input: "Fix the build", earlier: [] }
 */
export function newInputOf({
  prompt,
  messages,
  maxInputChars = MAX_INPUT_CHARS,
}: {
  prompt?: string | ModelMessage[] | undefined;
  messages?: ModelMessage[] | undefined;
  maxInputChars?: number;
}): { input: SendInput; earlier: ModelMessage[] } {
  if (typeof prompt === "string")
    return { input: { parts: checkedParts([{ type: "text", text: prompt }], maxInputChars) }, earlier: [] };
  const list = prompt ?? messages;
  if (list === undefined || list.length === 0)
    throw new AgentInputError(
      "The call has no message: pass `prompt` (text or messages) or `messages`, ending with the user's new message.",
    );
  const last = list.at(-1)!;
  if (last.role !== "user") {
    throw new AgentInputError(
      `The last message must be the user's new message; got a '${last.role}' message. ` +
        "ctxwin keeps the conversation in its store and takes only what is new from a call " +
        "(tool approvals and client-side tool results are not supported).",
    );
  }
  return { input: { parts: checkedParts(userParts(last), maxInputChars) }, earlier: list.slice(0, -1) };
}

function userParts(message: UserModelMessage): RowPart[] {
  if (typeof message.content === "string") return [{ type: "text", text: message.content }];
  return message.content.map((part): RowPart => {
    if (part.type === "text") return { type: "text", text: part.text };
    if (part.type === "image") {
      const mediaType = mediaTypeOf(part.mediaType);
      return { type: "file", mediaType, url: urlOf(part.image, mediaType) };
    }
    if (part.type === "file") {
      const mediaType = mediaTypeOf(part.mediaType);
      return {
        type: "file",
        mediaType,
        url: urlOf(part.data, mediaType),
        ...(part.filename === undefined ? {} : { filename: part.filename }),
      };
    }
    throw new AgentInputError(`A user message part of type '${(part as { type: string }).type}' is not supported.`);
  });
}

function checkedParts(parts: RowPart[], maxInputChars: number): RowPart[] {
  const chars = parts.reduce(
    (total, part) => total + (part.type === "text" ? (part as { text: string }).text.length : 0),
    0,
  );
  if (chars > maxInputChars) {
    throw new AgentInputError(
      `The new message holds ${chars.toLocaleString("en-US")} characters of text; ` +
        `at most ${maxInputChars.toLocaleString("en-US")} are taken in one message. ` +
        "Attach it as a file or split it.",
    );
  }
  if (parts.length === 0) throw new AgentInputError("The new message is empty.");
  return parts;
}

/** AI SDK 7 takes a bare top-level type (`image`) for `image/*`; a part without one is an image of any type. */
function mediaTypeOf(mediaType: string | undefined): string {
  if (mediaType === undefined || mediaType.trim().toLowerCase() === "image") return "image/*";
  return mediaType;
}

/**
 * A file or image as the data URL a row keeps: bytes or base64 become a data URL; a data URL is
 * kept. Any other URL is refused, as is a media type that is not allowed (core/file-data.ts):
 * nothing is ever fetched, and nothing a provider cannot take is stored. The data comes bare or,
 * as AI SDK 7's `convertToModelMessages` gives it, tagged: `{ type: "data" | "url" | "text" | "reference", … }`.
 */
function urlOf(data: unknown, mediaType: string): string {
  const url = dataUrlOf(data, mediaType);
  const problem = fileDataProblem({ url, mediaType });
  if (problem !== undefined) throw new AgentInputError(problem);
  return url;
}

function dataUrlOf(data: unknown, mediaType: string): string {
  // An image of no stated type given as bytes is taken as PNG, as before.
  const stated = mediaType === "image/*" ? "image/png" : mediaType;
  if (data instanceof URL) return data.toString();
  if (typeof data === "string") return /^[a-z][a-z0-9+.-]*:/i.test(data) ? data : `data:${stated};base64,${data}`;
  if (data instanceof Uint8Array || data instanceof ArrayBuffer)
    return `data:${stated};base64,${Buffer.from(data as Uint8Array).toString("base64")}`;
  if (typeof data === "object" && data !== null && "type" in data) {
    const tagged = data as { type: unknown; data?: unknown; url?: unknown; text?: unknown };
    if (tagged.type === "data") return dataUrlOf(tagged.data, mediaType);
    // Any URL, a data: URL included, is kept as it is for the check: it never becomes base64 text.
    if (tagged.type === "url" && (tagged.url instanceof URL || typeof tagged.url === "string"))
      return String(tagged.url);
    if (tagged.type === "text" && typeof tagged.text === "string")
      return `data:${stated};base64,${Buffer.from(tagged.text, "utf8").toString("base64")}`;
    if (tagged.type === "reference")
      throw new AgentInputError(
        "A file part that names a provider file reference is not taken: ctxwin keeps a file as its data; send it as bytes, base64 text or a data: URL.",
      );
  }
  throw new AgentInputError("A file or image part holds data that is neither a data: URL, base64 text nor bytes.");
}
