/**
 * Temporary memory roots for tests: `<base>/memory` is the root, `<base>/sentinel` sits next to it
 * with a secret file that no memory command may ever read, list or change.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { createMemoryExecutor, type MemoryExecutorOptions } from "../memory-executor.js";
import type { MemoryCommandResult } from "../results.js";

export const SENTINEL_SECRET = "SENTINEL-SECRET-3f9a";

export interface MemoryFixture {
  base: string;
  root: string;
  sentinel: string;
  executor: (options?: Partial<MemoryExecutorOptions>) => ReturnType<typeof createMemoryExecutor>;
  /** Host path of a file in a scope of session `sessionId` (default "s1"). */
  hostPath: (scope: "global" | "project" | "workspace", relative: string, sessionId?: string) => string;
  /** Every file below the sentinel directory with its content (what must never change). */
  sentinelSnapshot: () => Record<string, string>;
  cleanup: () => void;
}

export function createMemoryFixture(): MemoryFixture {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-memory-"));
  const root = path.join(base, "memory");
  const sentinel = path.join(base, "sentinel");
  fs.mkdirSync(path.join(sentinel, "nested"), { recursive: true });
  fs.writeFileSync(path.join(sentinel, "secret.txt"), `${SENTINEL_SECRET}\n`);
  fs.writeFileSync(path.join(sentinel, "nested", "deep.md"), `${SENTINEL_SECRET} deep\n`);
  const warnings: string[] = [];
  return {
    base,
    root,
    sentinel,
    executor: (options = {}) =>
      createMemoryExecutor({ root, sessionId: "s1", onWarning: (message) => warnings.push(message), ...options }),
    hostPath: (scope, relative, sessionId = "s1") =>
      scope === "workspace" ? path.join(root, "workspaces", sessionId, relative) : path.join(root, scope, relative),
    sentinelSnapshot: () => snapshot(sentinel),
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

export function snapshot(directory: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      const relative = path.relative(directory, full);
      if (entry.isDirectory()) {
        files[`${relative}/`] = "";
        walk(full);
      } else files[relative] = entry.isSymbolicLink() ? `-> ${fs.readlinkSync(full)}` : fs.readFileSync(full, "latin1");
    }
  };
  walk(directory);
  return files;
}

/** The text of a successful result; fails the test with the error otherwise. */
export function okText(result: MemoryCommandResult): string {
  if (result.status !== "ok") throw new Error(`expected ok, got ${result.code}: ${result.message}`);
  return result.text;
}

/**
 * Runs each input in turn and expects an error result with the code paired with it; a failure
 * names the input.
 *
 * @example await expectErrorCodes(executor, [[{ command: "view", path: "/memories/none.md" }, "not_found"]]);
 */
export async function expectErrorCodes(
  executor: { execute: (input: unknown) => Promise<MemoryCommandResult> },
  cases: readonly (readonly [input: Record<string, unknown>, code: string])[],
): Promise<void> {
  for (const [input, code] of cases) {
    expect(await executor.execute(input), JSON.stringify(input)).toMatchObject({ code });
  }
}
