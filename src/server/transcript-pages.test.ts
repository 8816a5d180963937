import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../store/open-store.js";
import type { HistoryStore, ItemsOptions } from "../store/port.js";
import { splitSentences, writeSyntheticTranscript } from "../store/test-support/synthetic-transcript.js";
import { createWindowCache } from "./session-windows.js";
import { transcriptPage } from "./transcript-pages.js";

const PROSE = `The harbour was quiet before dawn. Gulls circled over the nets while the first boats left.
An engineer checked the pumps twice. Nobody expected the storm to arrive so early that year.
The ledger listed every crate, every barrel and every promise made to the merchants in town.
By noon the wind had turned. The captain ordered the sails reefed and the cargo lashed down.`;

/** A store that counts the rows its `items` calls return, to show a page's cost. */
function countingStore(store: HistoryStore) {
  const counter = { rowsRead: 0, calls: 0 };
  const wrapped: HistoryStore = Object.create(store) as HistoryStore;
  wrapped.items = async (sessionId: string, options?: ItemsOptions) => {
    const page = await store.items(sessionId, options);
    counter.calls += 1;
    counter.rowsRead += page.rows.length;
    return page;
  };
  return { store: wrapped, counter };
}

describe("transcript pages of a 100,000-row session", () => {
  let directory: string;
  let store: HistoryStore;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), "ctxwin-pages-"));
    store = openStore({ directory, durability: "normal" });
    await writeSyntheticTranscript({
      store,
      sessionId: "big",
      spec: { rows: 100_000, windowRows: 1_000, meanChars: 60, seed: 7 },
      sentences: splitSentences(PROSE),
      phrases: [],
      plantedPerPhrase: 0,
    });
    await store.append(
      "small",
      Array.from({ length: 100 }, (_, index) => ({
        role: "user" as const,
        parts: [{ type: "text" as const, text: `row ${index + 1}` }],
      })),
    );
  }, 300_000);
  afterAll(async () => {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  async function page(sessionId: string, position: Parameters<typeof transcriptPage>[0]["position"], limit = 100) {
    const counting = countingStore(store);
    const windows = await createWindowCache({ store }).windowsOf(sessionId);
    const result = await transcriptPage({ store: counting.store, sessionId, windows, position, limit });
    return { result, counter: counting.counter };
  }

  it("opens the newest page reading about as many rows as a 100-row session's", async () => {
    const big = await page("big", { kind: "newest" });
    const small = await page("small", { kind: "newest" });
    expect(big.result.rows).toHaveLength(100);
    expect(big.result.rows.at(-1)?.seq).toBe(100_000);
    expect(big.result).toMatchObject({ hasMoreBefore: true, hasMoreAfter: false });
    expect(small.result.rows).toHaveLength(100);
    expect(big.counter.rowsRead).toBeLessThanOrEqual(2 * 101);
    expect(big.counter.rowsRead).toBeLessThanOrEqual(small.counter.rowsRead + 101);
  });

  it("pages before, after and from a seq in the middle with bounded reads, hidden lead-ins left out", async () => {
    const before = await page("big", { kind: "before", seq: 50_005 });
    const seqs = before.result.rows.map((row) => row.seq);
    expect(seqs.at(-1)).toBe(50_004);
    expect(seqs).toHaveLength(100);
    // Seq 50,002 is the hidden lead-in after the boundary at 50,001.
    expect(seqs).not.toContain(50_002);
    expect(seqs).toContain(50_001);
    expect(before.result.rows.find((row) => row.seq === 50_001)).toMatchObject({
      kind: "boundary",
      windowId: "w:50001",
      windowNumber: 51,
    });
    expect(before.result).toMatchObject({ hasMoreBefore: true, hasMoreAfter: true });
    // One read of 101 rows (one of them hidden) and two probes of 8, not a second read of 101.
    expect(before.counter.rowsRead).toBeLessThanOrEqual(101 + 2 * 8);

    const after = await page("big", { kind: "after", seq: 70_000 }, 50);
    expect(after.result.rows.map((row) => row.seq)).toEqual(
      Array.from({ length: 50 }, (_, index) => 70_001 + index)
        .filter((seq) => seq !== 70_002)
        .concat(70_051),
    );
    expect(after.counter.rowsRead).toBeLessThanOrEqual(2 * 51 + 16);

    const from = await page("big", { kind: "from", seq: 30_001 }, 10);
    expect(from.result.rows[0]).toMatchObject({ seq: 30_001, kind: "boundary" });
    expect(from.result).toMatchObject({ hasMoreBefore: true, hasMoreAfter: true });
    expect(from.counter.rowsRead).toBeLessThanOrEqual(2 * 50 + 16);
  });

  it("reaches the first row with nothing before it", async () => {
    const first = await page("big", { kind: "before", seq: 3 });
    expect(first.result.rows.map((row) => row.seq)).toEqual([1, 2]);
    expect(first.result.hasMoreBefore).toBe(false);
  });
});
