/**
 * Every child process of the tests starts through `spawnTestWorker` (plain node on a bundle), none
 * through tsx, which costs each child over a second of start-up; and every listed worker was
 * bundled by the global setup.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPOSITORY_ROOT, TEST_WORKER_SOURCES, testWorkerBundle } from "./test-workers.js";

function typeScriptFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe("test workers", () => {
  it("are never started through tsx", () => {
    const throughTsx = typeScriptFiles(path.join(REPOSITORY_ROOT, "src")).filter((file) =>
      /["']--import["'],\s*["']tsx["']/.test(readFileSync(file, "utf8")),
    );
    expect(throughTsx.map((file) => path.relative(REPOSITORY_ROOT, file))).toEqual([]);
  });

  it("each have a bundle built before the tests", () => {
    expect(
      TEST_WORKER_SOURCES.filter(
        (source) => !existsSync(path.join(REPOSITORY_ROOT, source)) || !existsSync(testWorkerBundle(source)),
      ),
    ).toEqual([]);
  });
});
