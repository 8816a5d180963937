import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { testData, testDataPath } from "./test-data.js";

const root = mkdtempSync(path.join(tmpdir(), "ctxwin-test-data-"));
mkdirSync(path.join(root, "haystack"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("test data from CTXWIN_TEST_DATA", () => {
  it("finds a folder inside the folder the variable names", () => {
    expect(testData("haystack", "a test", { CTXWIN_TEST_DATA: root })).toBe(path.join(root, "haystack"));
    expect(testDataPath("haystack", { CTXWIN_TEST_DATA: root })).toBe(path.join(root, "haystack"));
  });

  it("skips with a line naming the variable when it is unset or lacks the data", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(testData("haystack", "the long-session test", {})).toBeUndefined();
    expect(testData("transcripts", "the import test", { CTXWIN_TEST_DATA: root })).toBeUndefined();
    expect(warn.mock.calls.map(([line]) => line)).toEqual([
      "skipped: the long-session test needs 'haystack' from the test-data folder, and CTXWIN_TEST_DATA is not set (set CTXWIN_TEST_DATA to that folder).",
      "skipped: the import test needs 'transcripts' from the test-data folder, " +
        `and ${path.join(root, "transcripts")} does not exist (set CTXWIN_TEST_DATA to that folder).`,
    ]);
    warn.mockRestore();
    expect(testDataPath("haystack", {})).toBe("$CTXWIN_TEST_DATA/haystack");
  });

  it("fails under CI=true instead of skipping", () => {
    expect(() => testData("haystack", "the long-session test", { CI: "true" })).toThrow(/CTXWIN_TEST_DATA is not set/);
    expect(() => testData("transcripts", "the import test", { CI: "true", CTXWIN_TEST_DATA: root })).toThrow(
      /does not exist/,
    );
  });
});
