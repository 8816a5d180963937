/** Temp directories for tests, each removed after the test that made it. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";

/**
 * Registers an `afterEach` that removes every temp directory made by the function it returns.
 *
 * @example
 * const memoryRoot = temporaryDirectories("ctxwin-notes-flush-");
 * const root = memoryRoot(); // a fresh directory, gone after this test
 */
export function temporaryDirectories(prefix: string): () => string {
  const directories: string[] = [];
  afterEach(() => {
    while (directories.length > 0) fs.rmSync(directories.pop()!, { recursive: true, force: true });
  });
  return () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    directories.push(directory);
    return directory;
  };
}
