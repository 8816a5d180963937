import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // examples/ import the package by its name, as a user would; it is the source here (tsconfig.json `paths`).
  resolve: {
    alias: [
      { find: /^ctxwin$/, replacement: path.resolve(import.meta.dirname, "src/index.ts") },
      { find: /^ctxwin\/([a-z]+)$/, replacement: path.resolve(import.meta.dirname, "src/entries/$1.ts") },
    ],
  },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts", "web/src/**/*.test.ts"],
    globalSetup: ["test/build-once.ts", "test/build-test-workers.ts", "test/postgres-server.ts"],
    // Vitest's default (one worker fewer than the cores) runs every file one after the other on a
    // 2-core machine such as CI, where the slowest files mostly wait on child processes (crash
    // tests, the built CLI, Chromium). Two files at a time there; the default elsewhere.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
