/**
 * Vitest global setup: builds the package once (TypeScript to `dist/`, and the web UI when it
 * exists) before any test runs, so end-to-end tests that spawn `dist/cli/main.js` never race each
 * other rebuilding the same files.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

export default function buildOnce(): void {
  const root = path.resolve(import.meta.dirname, "..");
  const result = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`npm run build failed before the tests:\n${result.stdout}\n${result.stderr}`);
  if (!existsSync(path.join(root, "dist", "cli", "main.js"))) throw new Error("npm run build did not produce dist/cli/main.js");
}
