/**
 * The checks the multi-process and crash tests rely on must catch what they claim to catch:
 * a gap, a duplicate, a partial or split batch, a writer's rows out of order.
 */
import { describe, expect, it } from "vitest";
import type { StoredRow } from "../port.js";
import { taggedRows } from "./row-tags.js";
import { batchProblems, batchesPresent, seqProblems, workerOrderProblems } from "./transcript-checks.js";

function stored(...calls: { worker: string; batch: string; size: number; firstOrder: number }[]): StoredRow[] {
  return calls
    .flatMap((call) => taggedRows(call))
    .map((row, position) => ({
      ...row,
      sessionId: "s",
      seq: position + 1,
      id: `id-${position}`,
      createdAt: "2026-01-01T00:00:00.000Z",
    }));
}

const healthy = () =>
  stored(
    { worker: "a", batch: "a:0", size: 1, firstOrder: 0 },
    { worker: "b", batch: "b:0", size: 3, firstOrder: 0 },
    { worker: "a", batch: "a:1", size: 2, firstOrder: 1 },
  );

describe("transcript checks", () => {
  it("find nothing wrong in a healthy transcript", () => {
    const rows = healthy();
    expect(seqProblems(rows, 6)).toEqual([]);
    expect(batchProblems(rows)).toEqual([]);
    expect(workerOrderProblems(rows)).toEqual([]);
    expect([...batchesPresent(rows)]).toEqual(["a:0", "b:0", "a:1"]);
  });

  it("report gaps, duplicates and a last seq that disagrees with the rows", () => {
    const rows = healthy();
    expect(
      seqProblems(
        rows.filter((row) => row.seq !== 3),
        6,
      ),
    ).toHaveLength(4);
    expect(seqProblems([...rows.slice(0, 2), { ...(rows[1] as StoredRow) }], 3)).toEqual([
      "row at position 2 has seq 2, expected 3",
    ]);
    expect(seqProblems(rows, 7)).toEqual(["6 rows read, but the store's last seq is 7"]);
  });

  it("report a partial batch, a split batch and a batch out of order", () => {
    const rows = healthy();
    expect(batchProblems(rows.filter((row) => row.seq !== 4))).toEqual([
      expect.stringMatching(/^batch b:0: 2 of 3 rows present/),
    ]);
    const split = rows.map((row) => (row.seq >= 4 ? { ...row, seq: row.seq + 1 } : row));
    expect(batchProblems(split)).toEqual([expect.stringMatching(/^batch b:0: not contiguous/)]);
    const swapped = [rows[0], rows[2], rows[1], ...rows.slice(3)].map((row, position) => ({
      ...(row as StoredRow),
      seq: position + 1,
    }));
    expect(batchProblems(swapped)).toEqual([expect.stringMatching(/^batch b:0: rows out of order/)]);
  });

  it("report a writer whose rows were stored out of its own order", () => {
    const rows = stored(
      { worker: "a", batch: "a:1", size: 2, firstOrder: 1 },
      { worker: "a", batch: "a:0", size: 1, firstOrder: 0 },
    );
    expect(workerOrderProblems(rows)).toHaveLength(2);
  });
});
