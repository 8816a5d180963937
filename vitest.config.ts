import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/build-once.ts", "test/build-test-workers.ts", "test/postgres-server.ts"],
    // Vitest's default (one worker fewer than the cores) runs every file one after the other on a
    // 2-core machine such as CI, where the slowest files mostly wait on child processes (crash
    // tests, the built CLI, Chromium). Two files at a time there; the default elsewhere.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
