/**
 * What a turn stopped by a rollover carries into the new window (docs/adr/0023, 0050): the user
 * input that started the turn, verbatim up to a bound, and a ledger of the turn's tool calls (name,
 * arguments cut to a bound, outcome, item id; `turn-ledger.ts`). Facts from stored rows, never tool
 * results and never a summary. The records live in the `continue` row's `meta.carry`; its text is
 * rendered here.
 */
import { renderRowText } from "../row-text.js";
import { internalTypeOf, isProviderEligible } from "../visibility.js";
import { itemIdFor } from "../windows.js";
import { ledgerEntriesOf, readLedgerEntry, renderLedger, type LedgerEntry, type LedgerRow } from "./turn-ledger.js";

export { LEDGER_ARGUMENT_CHARS, LEDGER_DETAIL_CHARS, type CallOutcome, type LedgerEntry } from "./turn-ledger.js";

/** The carried input may take this many tokens at most … */
export const CARRIED_INPUT_MAX_TOKENS = 2_000;
/** … and at most this share of the context limit. */
export const CARRIED_INPUT_LIMIT_SHARE = 0.1;
/** The ledger may take this many tokens at most … */
export const LEDGER_MAX_TOKENS = 1_000;
/** … and at most this share of the context limit. */
export const LEDGER_LIMIT_SHARE = 0.05;

export interface CarriedInput {
  /** Item id of the stored user input (`session_history read_item`). */
  itemId: string;
  /** The window the input was stored in. */
  windowId: string;
  /** The input as carried: all of it, or its beginning. */
  text: string;
  /** Characters of the whole input. */
  totalChars: number;
  truncated: boolean;
}

/** `meta.carry` of a `continue` row. */
export interface TurnCarry {
  input?: CarriedInput;
  ledger: LedgerEntry[];
  /** Older calls of the turn left out to keep the ledger under its bound. */
  omittedCalls: number;
}

export type CarryRow = LedgerRow;

export interface CarryBounds {
  inputTokens: number;
  ledgerTokens: number;
}

/**
 * The bounds for a model with this context limit.
 *
 * @example carryBounds(20_000) // { inputTokens: 2_000, ledgerTokens: 1_000 }
 */
export function carryBounds(contextLimit: number): CarryBounds {
  return {
    inputTokens: Math.max(0, Math.min(CARRIED_INPUT_MAX_TOKENS, Math.floor(CARRIED_INPUT_LIMIT_SHARE * contextLimit))),
    ledgerTokens: Math.max(0, Math.min(LEDGER_MAX_TOKENS, Math.floor(LEDGER_LIMIT_SHARE * contextLimit))),
  };
}

/**
 * The carry of the turn that was running at the end of `rows` (the window that rolls over). The
 * turn began at the last real user input of the window; a window without one continues a turn
 * carried into it, whose carry is taken over (and extended by this window's calls).
 *
 * @example
 * const carry = deriveTurnCarry({ rows: window.rows, windowId: "w:0", bounds: carryBounds(20_000), countTokens });
 */
export function deriveTurnCarry({
  rows,
  windowId,
  bounds,
  countTokens,
}: {
  rows: readonly CarryRow[];
  windowId: string;
  bounds: CarryBounds;
  countTokens: (text: string) => number;
}): TurnCarry | undefined {
  const startIndex = rows.findLastIndex((row) => isTurnStart(row));
  const start = startIndex < 0 ? undefined : rows[startIndex];
  let input: CarriedInput | undefined;
  let earlier: LedgerEntry[] = [];
  let omittedCalls = 0;
  if (start !== undefined && start.role === "user" && internalTypeOf(start) === undefined) {
    input = cutInput({
      text: renderRowText(start),
      itemId: itemIdFor(start.seq),
      windowId,
      maxTokens: bounds.inputTokens,
      countTokens,
    });
  } else if (start !== undefined) {
    const previous = readCarry(start.meta?.["carry"]);
    input = previous?.input;
    earlier = previous?.ledger ?? [];
    omittedCalls = previous?.omittedCalls ?? 0;
  }
  const calls = [...earlier, ...ledgerEntriesOf(rows.slice(startIndex + 1))];
  if (input === undefined && calls.length === 0) return undefined;
  const kept = [...calls];
  // Oldest calls go first: the latest work is what the agent would otherwise repeat.
  while (
    kept.length > 0 &&
    countTokens(renderLedger({ entries: kept, omitted: omittedCalls + calls.length - kept.length })) >
      bounds.ledgerTokens
  )
    kept.shift();
  const carry: TurnCarry = { ledger: kept, omittedCalls: omittedCalls + calls.length - kept.length };
  if (input !== undefined) carry.input = input;
  return carry;
}

/**
 * The text of a `continue` row: the plain instruction, then the carried input and the ledger.
 *
 * @example
 * carriedContinueText({ instruction: "Continue the task you were working on.", carry })
 */
export function carriedContinueText({
  instruction,
  carry,
  historyToolAvailable = true,
}: {
  instruction: string;
  carry: TurnCarry;
  historyToolAvailable?: boolean;
}): string {
  const blocks = [instruction];
  const { input } = carry;
  if (input !== undefined) {
    const attributes = `item="${input.itemId}" window="${input.windowId}"${input.truncated ? ` truncated="true"` : ""}`;
    const lead =
      `The turn you are continuing began with this user input (item ${input.itemId}, ` +
      `window ${input.windowId}), carried here verbatim${input.truncated ? ", only its beginning" : ""}:`;
    const lines = [
      lead,
      `<carried_user_input ${attributes}>`,
      neutralizeCarryTags(input.text),
      "</carried_user_input>",
    ];
    if (input.truncated) {
      lines.push(
        historyToolAvailable
          ? `It is ${input.totalChars.toLocaleString("en-US")} characters long; ` +
              `read the rest with session_history read_item (item_id "${input.itemId}", ` +
              `offset_chars ${input.text.length}).`
          : `It is ${input.totalChars.toLocaleString("en-US")} characters long; only this beginning can be carried.`,
      );
    }
    blocks.push(lines.join("\n"));
  }
  if (carry.ledger.length > 0 || carry.omittedCalls > 0)
    blocks.push(renderLedger({ entries: carry.ledger, omitted: carry.omittedCalls, historyToolAvailable }));
  return blocks.join("\n\n");
}

/** A `meta.carry` value as stored, or `undefined` when it is not one (older or edited rows). */
export function readCarry(value: unknown): TurnCarry | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const ledger = Array.isArray(record["ledger"])
    ? record["ledger"].flatMap((entry: unknown) => readLedgerEntry(entry) ?? [])
    : [];
  const omittedCalls =
    typeof record["omittedCalls"] === "number" &&
    Number.isInteger(record["omittedCalls"]) &&
    record["omittedCalls"] >= 0
      ? record["omittedCalls"]
      : 0;
  const carry: TurnCarry = { ledger, omittedCalls };
  if (isCarriedInput(record["input"])) carry.input = record["input"];
  return carry;
}

/** A real user input, or a `continue` row (a turn carried into this window starts there). */
function isTurnStart(row: CarryRow): boolean {
  if (!isProviderEligible(row)) return false;
  if (row.role !== "user") return false;
  const type = internalTypeOf(row);
  return type === undefined || type === "continue";
}

function cutInput({
  text,
  itemId,
  windowId,
  maxTokens,
  countTokens,
}: {
  text: string;
  itemId: string;
  windowId: string;
  maxTokens: number;
  countTokens: (text: string) => number;
}): CarriedInput {
  if (countTokens(text) <= maxTokens) return { itemId, windowId, text, totalChars: text.length, truncated: false };
  // The longest beginning under the bound (token counts grow with the length).
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (countTokens(text.slice(0, middle)) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  return { itemId, windowId, text: text.slice(0, low), totalChars: text.length, truncated: true };
}

const CARRY_TAG = /<(\s*\/?\s*)(carried_user_input)(?![\w-])/gi;

/** The carried text cannot close its own block. */
function neutralizeCarryTags(text: string): string {
  return text.replace(CARRY_TAG, (_match, between: string, name: string) => `&lt;${between}${name}`);
}

function isCarriedInput(value: unknown): value is CarriedInput {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record["itemId"] === "string" &&
    typeof record["windowId"] === "string" &&
    typeof record["text"] === "string" &&
    typeof record["totalChars"] === "number" &&
    typeof record["truncated"] === "boolean"
  );
}
