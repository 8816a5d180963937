/**
 * The rows of one rollover transaction (docs/design.md §6): the boundary, the hidden lead-in and the
 * triggering input, all carrying the same `rolloverId`, appended in one atomic call.
 */
import type { RolloverMeta, RowInput, RowPart } from "../row.js";
import { leadInText, type LeadInTextOptions } from "./lead-in-text.js";
import { carriedContinueText, type TurnCarry } from "./turn-carry.js";

/** The fields of the boundary's `meta` (its tokens are rounded, never negative), and when it was written. */
export interface RolloverBoundaryOptions extends Omit<RolloverMeta, "type"> {
  createdAt?: string;
}

/**
 * A rollover boundary: provider-invisible, shown to people as a divider.
 *
 * @example
 * rolloverBoundaryRow({ rolloverId: "r1", reason: "on-send", previousWindowId: "w:0", flushOpportunity: true, contextTokens: 7_100, maxTokens: 10_000 })
 */
export function rolloverBoundaryRow({
  rolloverId,
  reason,
  previousWindowId,
  flushOpportunity,
  contextTokens,
  maxTokens,
  createdAt,
}: RolloverBoundaryOptions): RowInput {
  const meta: RolloverMeta = {
    type: "rollover",
    rolloverId,
    reason,
    previousWindowId,
    flushOpportunity,
    contextTokens: Math.max(0, Math.round(contextTokens)),
    maxTokens: Math.max(0, Math.round(maxTokens)),
  };
  return withCreatedAt(
    {
      role: "assistant",
      parts: [],
      synthetic: true,
      uiVisible: true,
      boundary: { kind: "rollover" },
      meta: { ...meta },
    },
    createdAt,
  );
}

/**
 * The hidden lead-in after a rollover boundary.
 *
 * @example
 * leadInRow({ rolloverId: "r1", windowId: "w:12", previousWindowId: "w:0", reason: "on-send", flushOpportunity: true })
 */
export function leadInRow({
  rolloverId,
  createdAt,
  text,
  ...textOptions
}: LeadInTextOptions & { rolloverId: string; createdAt?: string; text?: string }): RowInput {
  return withCreatedAt(
    {
      role: "user",
      parts: [{ type: "text", text: text ?? leadInText(textOptions) }],
      synthetic: true,
      uiVisible: false,
      meta: {
        type: "lead-in",
        rolloverId,
        windowId: textOptions.windowId,
        ...(textOptions.handoffNote === undefined ? {} : { handoffNote: textOptions.handoffNote }),
      },
    },
    createdAt,
  );
}

/** Text of the `continue` row that resumes a turn stopped by a rollover. */
export const CONTINUE_TEXT = "Continue the task you were working on.";

/**
 * The hidden `continue` input that resumes work after a rollover when no real user input is queued.
 * With a `carry` (a turn stopped by the rollover) it also carries that turn's user input and the
 * ledger of its finished tool calls, as text for the model and as records in `meta.carry`.
 *
 * @example
 * continueRow({ rolloverId: "r1" })
 */
export function continueRow({
  rolloverId,
  createdAt,
  text = CONTINUE_TEXT,
  carry,
  historyToolAvailable,
}: {
  rolloverId?: string;
  createdAt?: string;
  text?: string;
  carry?: TurnCarry;
  historyToolAvailable?: boolean;
}): RowInput {
  const meta: RowInput["meta"] = { type: "continue" };
  if (rolloverId !== undefined) meta["rolloverId"] = rolloverId;
  if (carry !== undefined) meta["carry"] = carry;
  const body =
    carry === undefined
      ? text
      : carriedContinueText({
          instruction: text,
          carry,
          ...(historyToolAvailable === undefined ? {} : { historyToolAvailable }),
        });
  return withCreatedAt(
    { role: "user", parts: [{ type: "text", text: body }], synthetic: true, uiVisible: false, meta },
    createdAt,
  );
}

/**
 * A user's input row. When it triggers a rollover it carries the `rolloverId` in its `metadata`
 * (its `meta` stays empty: a user row with an internal `meta.type` would not be sent).
 *
 * @example
 * userInputRow({ parts: [{ type: "text", text: "hello" }] })
 */
export function userInputRow({
  parts,
  rolloverId,
  metadata,
  createdAt,
}: {
  parts: RowPart[];
  rolloverId?: string;
  metadata?: Record<string, unknown>;
  createdAt?: string;
}): RowInput {
  const merged = rolloverId === undefined ? metadata : { ...metadata, rolloverId };
  return withCreatedAt(
    merged === undefined ? { role: "user", parts } : { role: "user", parts, metadata: merged },
    createdAt,
  );
}

export interface RolloverTransactionOptions extends RolloverBoundaryOptions {
  /** Id of the window the boundary opens: `w:<seq of the boundary>`. */
  windowId: string;
  historyToolAvailable?: boolean;
  notesPath?: string;
  /** A requested rollover's handoff note, quoted by the lead-in. */
  handoffNote?: string;
  /** The input that rides along: a user's row or a `continue` row, stamped with the rolloverId. */
  trigger: RowInput;
}

/**
 * `[boundary, lead-in, trigger]`, every row stamped with the same rolloverId.
 *
 * @example
 * const rows = rolloverTransactionRows({ ...boundaryOptions, windowId: "w:12", trigger: continueRow({}) });
 * await store.append(sessionId, rows, { expectLastSeq: 11 });
 */
export function rolloverTransactionRows({
  windowId,
  historyToolAvailable,
  notesPath,
  handoffNote,
  trigger,
  ...boundary
}: RolloverTransactionOptions): RowInput[] {
  const leadIn = leadInRow({
    rolloverId: boundary.rolloverId,
    windowId,
    previousWindowId: boundary.previousWindowId,
    reason: boundary.reason,
    flushOpportunity: boundary.flushOpportunity,
    ...(historyToolAvailable === undefined ? {} : { historyToolAvailable }),
    ...(notesPath === undefined ? {} : { notesPath }),
    ...(handoffNote === undefined ? {} : { handoffNote }),
    ...(boundary.createdAt === undefined ? {} : { createdAt: boundary.createdAt }),
  });
  return [rolloverBoundaryRow(boundary), leadIn, stampRolloverId(trigger, boundary.rolloverId)];
}

/** The trigger row with the rolloverId: in `meta` for internal rows, in `metadata` for user rows. */
export function stampRolloverId(row: RowInput, rolloverId: string): RowInput {
  if (row.meta !== undefined) return { ...row, meta: { ...row.meta, rolloverId } };
  const metadata = isRecord(row.metadata) ? row.metadata : {};
  return { ...row, metadata: { ...metadata, rolloverId } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function withCreatedAt(row: RowInput, createdAt: string | undefined): RowInput {
  return createdAt === undefined ? row : { ...row, createdAt };
}
