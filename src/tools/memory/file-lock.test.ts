import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemoryLockTimeoutError } from "./errors.js";
import { withFileLock } from "./file-lock.js";
import { createMemoryFixture, okText } from "./test-support/memory-fixture.js";

let directory: string;
beforeEach(() => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-lock-"));
});
afterEach(() => fs.rmSync(directory, { recursive: true, force: true }));

describe("withFileLock", () => {
  it("holds the lock while running and removes it afterwards", async () => {
    const lockFile = path.join(directory, "x.lock");
    const seen = await withFileLock({ lockFile, run: () => fs.readFileSync(lockFile, "utf8") });
    expect(seen).toMatch(new RegExp(`^${process.pid} [0-9a-f]{16}$`));
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it("gives up with a typed error while a live holder keeps the lock", async () => {
    const lockFile = path.join(directory, "x.lock");
    fs.writeFileSync(lockFile, `${process.pid} someone-else`);
    await expect(withFileLock({ lockFile, maxWaitMs: 10, run: () => "ran" })).rejects.toSatisfy((error) => MemoryLockTimeoutError.isInstance(error));
    expect(fs.readFileSync(lockFile, "utf8")).toBe(`${process.pid} someone-else`);
  });

  it("breaks a lock older than staleAfterMs", async () => {
    const lockFile = path.join(directory, "x.lock");
    fs.writeFileSync(lockFile, `${process.pid} abandoned`);
    const written = fs.statSync(lockFile).mtimeMs;
    expect(await withFileLock({ lockFile, maxWaitMs: 10, staleAfterMs: 30_000, clock: () => written + 30_001, run: () => "ran" })).toBe("ran");
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it("releases the lock when run throws", async () => {
    const lockFile = path.join(directory, "x.lock");
    await expect(withFileLock({ lockFile, run: () => Promise.reject(new Error("boom")) })).rejects.toThrow("boom");
    expect(fs.existsSync(lockFile)).toBe(false);
  });
});

describe("parallel tool calls in one process", () => {
  it("apply one after the other", async () => {
    const fixture = createMemoryFixture();
    try {
      const executor = fixture.executor();
      okText(await executor.execute({ command: "create", path: "/memories/project/a.md", file_text: "<<END>>\n" }));
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, index) => executor.execute({ command: "str_replace", path: "/memories/project/a.md", old_str: "<<END>>", new_str: `${index}\n<<END>>` })),
      );
      expect(results.every((result) => result.status === "ok")).toBe(true);
      const lines = fs.readFileSync(fixture.hostPath("project", "a.md"), "utf8").trimEnd().split("\n");
      expect(lines.slice(0, -1).sort()).toEqual(Array.from({ length: 10 }, (_, index) => String(index)).sort());
    } finally {
      fixture.cleanup();
    }
  });
});
