/**
 * The chat's messages as `useChat` builds them from `POST /api/sessions/:id/chat` (ADR 0057): the
 * AI SDK's text and tool parts, and ctxwin's data parts, typed by the server's own statement of
 * them (`src/session/ui-message-stream.ts`, through `src/server/view-types.ts`; types only).
 */
import type { UIMessage } from "ai";
import type { CtxwinDataTypes } from "../../../src/server/view-types.js";

export type ChatDataTypes = CtxwinDataTypes;
export type LiveRollover = ChatDataTypes["ctxwin-rollover"];
export type LiveUsage = ChatDataTypes["ctxwin-usage"];

export type ChatMessage = UIMessage<unknown, ChatDataTypes>;
export type ChatPart = ChatMessage["parts"][number];
