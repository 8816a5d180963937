/**
 * The chat's messages as `useChat` builds them from `POST /api/sessions/:id/chat` (ADR 0057): the
 * AI SDK's text and tool parts, and ctxwin's data parts (src/session/ui-message-stream.ts has the
 * server's side of these types).
 */
import type { UIMessage } from "ai";

export interface LiveRollover {
  rolloverId: string;
  reason: string;
  previousWindowId: string;
  windowId: string;
  contextTokens: number;
  maxTokens: number;
}

export interface LiveWarning {
  windowId: string;
  contextTokens: number;
  maxTokens: number;
  text: string;
}

export interface LiveUsage {
  windowId: string;
  contextTokens: number;
  contextLimit: number | undefined;
  percent: number | undefined;
}

export type ChatDataTypes = {
  "ctxwin-rollover": LiveRollover;
  "ctxwin-compaction": { windowId: string; previousWindowId: string };
  "ctxwin-warning": LiveWarning;
  "ctxwin-usage": LiveUsage;
  "ctxwin-notes-flush": { windowId: string; notesPath: string };
  "ctxwin-notes": { path: string; toolCallId: string };
  "ctxwin-blocked": { reason: string };
  "ctxwin-retry": { retry: number; message: string; discardedText: string };
};

export type ChatMessage = UIMessage<unknown, ChatDataTypes>;
export type ChatPart = ChatMessage["parts"][number];
