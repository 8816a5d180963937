/**
 * The import freshener on a scripted import: a tool call waits for an import at most `waitMs`,
 * says how far a longer one got, starts at most one at a time and at most one per interval, and
 * reports a failed import instead of failing the call.
 */
import { describe, expect, it } from "vitest";
import type { ImportProgress } from "../../import/import-files.js";
import { createImportFreshener, type ImportRun } from "./import-freshener.js";

/** An import that reads `files` files only when the test says so. */
function scriptedImport(files: number) {
  let progress: ImportProgress | undefined;
  let finish: (() => void) | undefined;
  let fail: ((error: Error) => void) | undefined;
  let runs = 0;
  const run: ImportRun = (given) => {
    runs += 1;
    progress = given;
    given.start(files);
    return new Promise((resolve, reject) => {
      finish = () => resolve({ rowsAdded: 1 });
      fail = reject;
    });
  };
  return {
    run,
    read: (count: number) => {
      for (let index = 0; index < count; index += 1) progress?.advance();
    },
    finish: () => finish?.(),
    fail: (error: Error) => fail?.(error),
    runs: () => runs,
  };
}

/** A freshener of Codex transcripts over `source` that waits up to a minute for an import. */
function codexFreshener(
  source: ReturnType<typeof scriptedImport>,
  options: Omit<Parameters<typeof createImportFreshener>[0], "label" | "run" | "waitMs">,
) {
  return createImportFreshener({ label: "codex", run: source.run, waitMs: 60_000, ...options });
}

describe("import freshener", () => {
  it("answers without waiting past waitMs and says how far the first import got", async () => {
    const source = scriptedImport(5_000);
    const freshener = createImportFreshener({ label: "claude-code", run: source.run, waitMs: 0, minIntervalMs: 0 });
    freshener.startNow();
    source.read(120);
    expect(await freshener.beforeCall()).toBe(
      "Note: ctxwin is still importing claude-code transcripts in the background " +
        "(the first import): 120 of 5000 files read. Results may miss the newest sessions; ask again later.",
    );
    expect(source.runs()).toBe(1);
    source.finish();
    await freshener.settle();
    expect(await freshener.beforeCall()).toMatch(
      /still importing claude-code transcripts in the background: 0 of 5000 files read/,
    );
    expect(source.runs()).toBe(2);
  });

  it("waits for a quick import, then starts the next one only after the interval", async () => {
    let clock = 0;
    const source = scriptedImport(3);
    const freshener = codexFreshener(source, { minIntervalMs: 5_000, now: () => clock });
    const call = freshener.beforeCall();
    source.read(3);
    source.finish();
    expect(await call).toBeUndefined();
    clock = 4_999;
    expect(await freshener.beforeCall()).toBeUndefined();
    expect(source.runs()).toBe(1);
    clock = 5_000;
    const later = freshener.beforeCall();
    source.finish();
    expect(await later).toBeUndefined();
    expect(source.runs()).toBe(2);
  });

  it("reports a failed import in the answer and on stderr, and tries again next time", async () => {
    const errors: string[] = [];
    const source = scriptedImport(1);
    const freshener = codexFreshener(source, { minIntervalMs: 0, onError: (message) => errors.push(message) });
    const call = freshener.beforeCall();
    source.fail(new Error("EACCES: permission denied, open '/home/dev/.codex/sessions'"));
    expect(await call).toBe(
      "Note: the last import of codex transcripts failed " +
        "(EACCES: permission denied, open '/home/dev/.codex/sessions'); " +
        "results come from what was imported before.",
    );
    expect(errors).toEqual([
      "importing codex transcripts failed: EACCES: permission denied, open '/home/dev/.codex/sessions'",
    ]);
    const retry = freshener.beforeCall();
    source.finish();
    expect(await retry).toBeUndefined();
    expect(source.runs()).toBe(2);
  });
});
