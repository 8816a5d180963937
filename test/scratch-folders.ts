/**
 * Temporary folders for one test file: the function `scratchFolders` returns makes a new one each
 * call (named after `prefix`), and every folder it made is removed after the file's tests (or
 * after each test, `removed: "after each test"`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach } from "vitest";

/**
 * @example
 * const scratch = scratchFolders("ctxwin-eval-test-");
 * it("…", () => { const folder = scratch(); … });
 */
export function scratchFolders(
  prefix: string,
  removed: "after the file" | "after each test" = "after the file",
): () => string {
  const folders: string[] = [];
  (removed === "after each test" ? afterEach : afterAll)(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  return () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
    folders.push(folder);
    return folder;
  };
}
