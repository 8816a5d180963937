/**
 * An import given a deadline (the SessionStart hook's budget, ADR 0076) stops at the first line,
 * page or batch past it, keeps what it committed, and says the report is partial; the next import
 * adds the rest. The clock is injected: it moves only when the store commits a batch, or when the
 * test says so, so nothing here depends on the machine's speed.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importFiles } from "./import-files.js";
import { advancingOnAppend } from "./test-support/advancing-clock.js";
import { writeLongTranscript } from "./test-support/long-transcript.js";
import { scratchStores } from "./test-support/scratch-stores.js";

const SESSION = "7a1d3c55-0b2e-4f6a-9c8d-3e4f5a6b7c8d";
const { temporaryDirectory, openScratchStore } = scratchStores("ctxwin-import-deadline-");

async function longTranscript(lines: number): Promise<string> {
  const file = path.join(temporaryDirectory(), `${SESSION}.jsonl`);
  await writeLongTranscript({ file, sessionId: SESSION, lines });
  return file;
}

describe("an import with a deadline", () => {
  it("stops after the batch that crossed it, reports partial, and the next import adds the rest", async () => {
    const transcript = await longTranscript(1_600);
    const store = openScratchStore();
    const clock = { time: Date.now() };
    const now = () => clock.time;
    // Batches of 500 rows; each commit moves the clock 1 s: the deadline falls after the second.
    const first = await importFiles({
      store: advancingOnAppend(store, clock, 1_000),
      format: "claude-code",
      paths: [transcript],
      now,
      deadline: clock.time + 1_500,
    });

    expect(first.partial).toBe(true);
    expect(first.rowsAdded).toBe(1_000);
    expect(await store.lastSeq(`claude-code:${SESSION}`)).toBe(1_000);

    const second = await importFiles({ store, format: "claude-code", paths: [transcript], now });
    expect(second.partial).toBe(false);
    expect(second.rowsAlreadyPresent).toBe(1_000);
    expect(second.rowsAdded).toBeGreaterThan(0);
    expect(await store.lastSeq(`claude-code:${SESSION}`)).toBe(1_000 + second.rowsAdded);
    expect(second.warnings).toEqual([]);

    const fresh = openScratchStore();
    const whole = await importFiles({ store: fresh, format: "claude-code", paths: [transcript], now });
    expect(await fresh.lastSeq(`claude-code:${SESSION}`)).toBe(1_000 + second.rowsAdded);
    expect(whole.rowsAdded).toBe(1_000 + second.rowsAdded);
  });

  it("stops while reading the transcript: nothing written, partial, and the next import adds all of it", async () => {
    const transcript = await longTranscript(400);
    const store = openScratchStore();
    let checks = 0;
    // A clock that reaches the deadline on its 50th reading: part-way through the file's lines.
    const start = Date.now();
    const now = () => start + (checks++ >= 50 ? 10_000 : 0);
    const first = await importFiles({
      store,
      format: "claude-code",
      paths: [transcript],
      now,
      deadline: start + 5_000,
    });
    expect(first).toMatchObject({ partial: true, rowsAdded: 0, files: 1 });
    expect(await store.lastSeq(`claude-code:${SESSION}`)).toBe(0);

    const second = await importFiles({ store, format: "claude-code", paths: [transcript] });
    expect(second).toMatchObject({ partial: false, rowsAlreadyPresent: 0 });
    expect(second.rowsAdded).toBe(await store.lastSeq(`claude-code:${SESSION}`));
    expect(second.rowsAdded).toBeGreaterThan(250);
  });

  it("a deadline already past imports nothing; none at all imports everything in one run", async () => {
    const transcript = await longTranscript(40);
    const store = openScratchStore();
    const past = await importFiles({ store, format: "claude-code", paths: [transcript], deadline: Date.now() - 1 });
    expect(past).toMatchObject({ partial: true, rowsAdded: 0, files: 0 });
    const whole = await importFiles({ store, format: "claude-code", paths: [transcript] });
    expect(whole.partial).toBe(false);
    expect(whole.rowsAdded).toBe(await store.lastSeq(`claude-code:${SESSION}`));
  });
});
