/**
 * Where an edit forks (ADR 0068): just before the user message being edited, and before the rows
 * ctxwin wrote in the same append as that message (a budget warning in front of it, or the
 * boundary and lead-in of the rollover it triggered), so the edited turn decides its budget afresh.
 */
import type { Row } from "../../core/row.js";
import { parseItemId } from "../../core/windows.js";
import type { HistoryStore } from "../../store/port.js";
import { EditRefusedError } from "./edit-refused-error.js";

export interface EditPoint {
  /** Seq of the message being edited. */
  itemSeq: number;
  /** The last seq the edit's fork shares (0: nothing before it to share). */
  atSeq: number;
  /** The message as it was stored (a `rejected-input` row keeps the text that was never sent). */
  row: Row;
}

/**
 * A message the user typed: a user row ctxwin did not write itself, sent or kept as a
 * `rejected-input` (too large, never sent).
 *
 * @example isUserInput(row) // false for a lead-in, a warning or a `continue`
 */
export function isUserInput(row: Pick<Row, "role" | "synthetic" | "meta">): boolean {
  if (row.role !== "user" || row.synthetic === true) return false;
  return row.meta === undefined || row.meta.type === "rejected-input";
}

/**
 * @example
 * const { atSeq } = await editPointOf({ store, sessionId: "build-42", itemId: "17" });
 */
export async function editPointOf({
  store,
  sessionId,
  itemId,
}: {
  store: HistoryStore;
  sessionId: string;
  itemId: string;
}): Promise<EditPoint> {
  const seq = parseItemId(itemId);
  const lastSeq = await store.lastSeq(sessionId);
  if (seq === undefined || seq < 1 || seq > lastSeq) {
    throw new EditRefusedError(
      "unknown-item",
      String(itemId),
      `Cannot edit item ${JSON.stringify(itemId)} of '${sessionId}': no such item (its last item is ${lastSeq}).`,
    );
  }
  const floor = await store.privacyFloor(sessionId);
  if (seq <= floor) {
    throw new EditRefusedError(
      "behind-floor",
      itemId,
      `Cannot edit item ${seq} of '${sessionId}': it lies at or behind the privacy floor (a manual clear at item ${floor}).`,
    );
  }
  const row = await store.read(sessionId, seq);
  if (row === undefined)
    throw new EditRefusedError("unknown-item", itemId, `Cannot edit item ${seq} of '${sessionId}': it cannot be read.`);
  if (!isUserInput(row)) {
    throw new EditRefusedError(
      "not-user-input",
      itemId,
      `Cannot edit item ${seq} of '${sessionId}': it is not a message the user typed (role ${row.role}${row.meta === undefined ? "" : `, ${row.meta.type}`}).`,
    );
  }
  return { itemSeq: seq, atSeq: await startOfAppend(store, sessionId, row), row };
}

/** The seq before the rows ctxwin appended together with `row`: a warning ahead of it, or its rollover. */
async function startOfAppend(store: HistoryStore, sessionId: string, row: Row): Promise<number> {
  const before = row.seq > 1 ? await store.read(sessionId, row.seq - 1) : undefined;
  if (before === undefined) return row.seq - 1;
  if (before.meta?.type === "budget-warning") return before.seq - 1;
  const rolloverId =
    typeof row.metadata === "object" && row.metadata !== null
      ? (row.metadata as Record<string, unknown>)["rolloverId"]
      : undefined;
  if (before.meta?.type !== "lead-in" || rolloverId === undefined || before.meta["rolloverId"] !== rolloverId)
    return row.seq - 1;
  const boundary = before.seq > 1 ? await store.read(sessionId, before.seq - 1) : undefined;
  return boundary?.boundary?.kind === "rollover" ? boundary.seq - 1 : before.seq - 1;
}
