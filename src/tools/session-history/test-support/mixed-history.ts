/**
 * A transcript that crosses every kind of boundary: a first window that a manual reset later put
 * behind the privacy floor, the reset window, two rollovers with their hidden lead-in and continue
 * rows, a compaction, and legacy-looking rows. Test-only: excluded from the build.
 */
import type { HistoryStore, StoredRow } from "../../../store/port.js";
import * as rows from "./history-rows.js";

/** Text that exists only before the reset: no result may ever contain it. */
export const CLEARED_SECRET = "cleared-secret-kiwi";

export interface MixedHistory {
  /** Seq of each named row. */
  seq: Record<string, number>;
  all: StoredRow[];
}

/**
 * Windows (seq of boundary): w:0 (cleared) · w:5 reset · w:8 rollover · w:14 compaction · w:17 rollover (active).
 *
 * @example const { seq } = await seedMixedHistory(store, "s1"); seq.resetBoundary // 5
 */
export async function seedMixedHistory(store: HistoryStore, sessionId: string): Promise<MixedHistory> {
  const named: [string, ReturnType<typeof rows.userText>][] = [
    ["clearedQuestion", rows.userText(`Before the reset: my password hint is ${CLEARED_SECRET}`)],
    ["clearedAnswer", rows.assistantText(`Noted ${CLEARED_SECRET}, I will not repeat it`)],
    [
      "clearedTool",
      rows.toolCall({ name: "read_file", input: { path: "notes.txt" }, output: `${CLEARED_SECRET} inside a file` }),
    ],
    ["clearedRejected", rows.rejectedInput(`a paste that was too large ${CLEARED_SECRET}`)],
    ["resetBoundary", rows.reset()],
    ["afterReset", rows.userText("Start over: plan the orders table migration")],
    ["afterResetAnswer", rows.assistantText("Step one: add the new column with a default")],
    ["rollover1", rows.rollover("r1", "w:5")],
    ["leadIn1", rows.leadIn("r1", "hidden lead-in text hidden-lead-in-marker")],
    ["secondWindowQuestion", rows.userText("Which services write to orders.status?")],
    [
      "grepCall",
      rows.toolCall({
        name: "grep",
        input: { pattern: "orders.status" },
        output: "billing/service.ts:12\nshipping/worker.ts:40",
      }),
    ],
    ["unknownType", rows.unknownTypeRow("checkpoint written by a newer build")],
    ["rejected", rows.rejectedInput("rejected-input-marker: pasted 2 MB of logs")],
    ["compaction", rows.compaction("Summary: migration planned; billing and shipping write orders.status")],
    ["legacyMixed", rows.legacyMixedRow("Old-style assistant row about the backfill")],
    ["historyCall", rows.historyToolRow()],
    ["rollover2", rows.rollover("r2", "w:14")],
    ["leadIn2", rows.leadIn("r2", "hidden lead-in text hidden-lead-in-marker")],
    ["continue2", rows.continueRow("hidden-continue-marker")],
    ["activeAnswer", rows.assistantText("Backfill finished; 1,204 orders updated")],
  ];
  const stored = await store.append(
    sessionId,
    named.map(([, row]) => row),
  );
  const seq: Record<string, number> = {};
  named.forEach(([name], index) => {
    seq[name] = stored[index]!.seq;
  });
  return { seq, all: stored };
}
