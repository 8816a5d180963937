import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/build-once.ts", "test/build-test-workers.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
