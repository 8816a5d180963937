import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemoryLockTimeoutError } from "./errors.js";
import { LOCK_TAKING_SUFFIX, withFileLock } from "./file-lock.js";
import { removeAbandonedTemporaryFiles, TEMPORARY_FILE_PREFIX } from "./text-files.js";
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
    await expect(withFileLock({ lockFile, maxWaitMs: 10, run: () => "ran" })).rejects.toSatisfy((error) =>
      MemoryLockTimeoutError.isInstance(error),
    );
    expect(fs.readFileSync(lockFile, "utf8")).toBe(`${process.pid} someone-else`);
  });

  it("breaks a lock older than staleAfterMs", async () => {
    const lockFile = path.join(directory, "x.lock");
    fs.writeFileSync(lockFile, `${process.pid} abandoned`);
    const written = fs.statSync(lockFile).mtimeMs;
    expect(
      await withFileLock({
        lockFile,
        maxWaitMs: 10,
        staleAfterMs: 30_000,
        clock: () => written + 30_001,
        run: () => "ran",
      }),
    ).toBe("ran");
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it("releases the lock when run throws", async () => {
    const lockFile = path.join(directory, "x.lock");
    await expect(withFileLock({ lockFile, run: () => Promise.reject(new Error("boom")) })).rejects.toThrow("boom");
    expect(fs.existsSync(lockFile)).toBe(false);
  });
});

/** The pid of a process that has exited and been reaped: what a SIGKILLed writer leaves. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  return child.pid ?? 0;
}

/**
 * A writer can be killed at every point of the lock protocol; each point leaves one state on disk.
 * Each state is built here exactly as the kill leaves it, so no test depends on when a kill lands.
 */
describe("a taker killed at each point of the lock protocol", () => {
  const states: Array<{ point: string; leave: (lockFile: string, pid: number) => void }> = [
    {
      point: "after writing its private file, before linking it",
      leave: (lockFile, pid) => fs.writeFileSync(`${lockFile}.${pid}-abc${LOCK_TAKING_SUFFIX}`, `${pid} t`),
    },
    {
      point: "after linking, before removing its private file",
      leave: (lockFile, pid) => {
        fs.writeFileSync(`${lockFile}.${pid}-abc${LOCK_TAKING_SUFFIX}`, `${pid} t`);
        fs.linkSync(`${lockFile}.${pid}-abc${LOCK_TAKING_SUFFIX}`, lockFile);
      },
    },
    { point: "while holding the lock", leave: (lockFile, pid) => fs.writeFileSync(lockFile, `${pid} t`) },
    { point: "releasing, after reading its lock", leave: (lockFile, pid) => fs.writeFileSync(lockFile, `${pid} t`) },
  ];
  for (const { point, leave } of states) {
    it(`${point}: the next writer takes the lock at once and leaves no stray file`, async () => {
      const lockFile = path.join(directory, "x.lock");
      leave(lockFile, deadPid());
      expect(await withFileLock({ lockFile, maxWaitMs: 50, run: () => "ran" })).toBe("ran");
      expect(fs.readdirSync(directory)).toEqual([]);
    });
  }

  it("an empty lock (an older ctxwin killed between creating and filling it) is broken after a short bound, not 30 s", async () => {
    const lockFile = path.join(directory, "x.lock");
    fs.writeFileSync(lockFile, "");
    const written = fs.statSync(lockFile).mtimeMs;
    await expect(
      withFileLock({ lockFile, maxWaitMs: 10, clock: () => written + 500, run: () => "ran" }),
    ).rejects.toSatisfy((error) => MemoryLockTimeoutError.isInstance(error));
    expect(await withFileLock({ lockFile, maxWaitMs: 10, clock: () => written + 1_001, run: () => "ran" })).toBe("ran");
  });

  it("a lock file never exists without its owner: taking it links a file already holding `<pid> <token>`", async () => {
    const lockFile = path.join(directory, "x.lock");
    const linked: string[] = [];
    const link = fs.linkSync;
    fs.linkSync = (from, to) => {
      linked.push(fs.readFileSync(from, "utf8"));
      link(from, to);
    };
    try {
      await withFileLock({ lockFile, run: () => undefined });
    } finally {
      fs.linkSync = link;
    }
    expect(linked).toEqual([expect.stringMatching(new RegExp(`^${process.pid} [0-9a-f]{16}$`))]);
  });
});

describe("temporary files of killed writers", () => {
  it("are removed when their writer is gone or they are old, and kept while a live writer may own them", () => {
    const dead = path.join(directory, `${TEMPORARY_FILE_PREFIX}${deadPid()}-aa`);
    const nested = path.join(directory, "sub", `${TEMPORARY_FILE_PREFIX}${deadPid()}-bb`);
    const live = path.join(directory, `${TEMPORARY_FILE_PREFIX}${process.pid}-cc`);
    const legacy = path.join(directory, `${TEMPORARY_FILE_PREFIX}0123456789abcdef`);
    fs.mkdirSync(path.dirname(nested));
    for (const file of [dead, nested, live, legacy]) fs.writeFileSync(file, "partial");
    expect(removeAbandonedTemporaryFiles(directory)).toBe(2);
    expect([dead, nested, live, legacy].map((file) => fs.existsSync(file))).toEqual([false, false, true, true]);
    expect(removeAbandonedTemporaryFiles(directory, Date.now() + 11 * 60 * 1000)).toBe(2);
  });

  it("are cleaned when the scope is next written", async () => {
    const fixture = createMemoryFixture();
    try {
      const executor = fixture.executor();
      okText(await executor.execute({ command: "create", path: "/memories/project/a.md", file_text: "a\n" }));
      const left = fixture.hostPath("project", `${TEMPORARY_FILE_PREFIX}${deadPid()}-dd`);
      fs.writeFileSync(left, "x".repeat(100 * 1024));
      okText(await executor.execute({ command: "create", path: "/memories/project/b.md", file_text: "b\n" }));
      expect(fs.existsSync(left)).toBe(false);
    } finally {
      fixture.cleanup();
    }
  });
});

describe("parallel tool calls in one process", () => {
  it("apply one after the other", async () => {
    const fixture = createMemoryFixture();
    try {
      const executor = fixture.executor();
      okText(await executor.execute({ command: "create", path: "/memories/project/a.md", file_text: "<<END>>\n" }));
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          executor.execute({
            command: "str_replace",
            path: "/memories/project/a.md",
            old_str: "<<END>>",
            new_str: `${index}\n<<END>>`,
          }),
        ),
      );
      expect(results.every((result) => result.status === "ok")).toBe(true);
      const lines = fs.readFileSync(fixture.hostPath("project", "a.md"), "utf8").trimEnd().split("\n");
      expect(lines.slice(0, -1).sort()).toEqual(Array.from({ length: 10 }, (_, index) => String(index)).sort());
    } finally {
      fixture.cleanup();
    }
  });
});
