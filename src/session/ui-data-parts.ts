/**
 * The budget facts a send reports as plain data — a rollover, a compaction, a budget warning, a
 * usage reading, a notes flush, a blocked input, a retried step — and the data parts that carry
 * them in a `useChat` message (`CtxwinDataTypes`, streamed by `ui-message-stream.ts`). Types only,
 * importing only a type of `core/` that uses no Node API: the web UI's chat reads these, through
 * `server/view-types.ts`, instead of a copy of its own (ADR 0109).
 */
import type { RolloverReason } from "../core/row.js";

export interface RolloverInfo {
  rolloverId: string;
  reason: RolloverReason;
  previousWindowId: string;
  windowId: string;
  flushOpportunity: boolean;
  contextTokens: number;
  maxTokens: number;
  /** Reason `requested`: the agent's handoff note, quoted by the new window's lead-in. */
  handoffNote?: string;
}

export interface CompactionInfo {
  /** The window the compaction summary opens. */
  windowId: string;
  previousWindowId: string;
}

export interface WarningInfo {
  windowId: string;
  contextTokens: number;
  maxTokens: number;
  text: string;
}

/** What one provider request spent: its cache figures and its estimated cost. */
export interface RequestSpend {
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** `cacheReadTokens / inputTokens` of the request. */
  cachedShare: number;
  /** USD at the catalog's public prices; `null` when the model has no known price. */
  costUsd: number | null;
}

/** The window's context figure after a step, and what the step's request spent. */
export type UsageInfo = {
  windowId: string;
  contextTokens: number;
  contextLimit: number | undefined;
  percent: number | undefined;
} & RequestSpend;

export interface NotesFlushInfo {
  windowId: string;
  notesPath: string;
}

export interface BlockedInfo {
  reason: string;
  estimatedTokens?: number;
  hardCeiling?: number;
}

/**
 * The data parts ctxwin adds to an assistant message (`UIMessage<unknown, CtxwinDataTypes>`). A
 * type, not an interface, so it is a `UIDataTypes` without an index signature: a part's `type`
 * names its data's shape.
 */
export type CtxwinDataTypes = {
  "ctxwin-rollover": RolloverInfo;
  "ctxwin-compaction": CompactionInfo;
  "ctxwin-warning": WarningInfo;
  "ctxwin-usage": UsageInfo;
  "ctxwin-notes-flush": NotesFlushInfo;
  "ctxwin-notes": { path: string; toolCallId: string };
  "ctxwin-blocked": BlockedInfo;
  "ctxwin-retry": { retry: number; message: string; discardedText: string };
};
