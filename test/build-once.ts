/**
 * Vitest global setup: builds the package once (`scripts/build-package.mjs` to `dist/`, and the web UI when it
 * exists) before any test runs, so end-to-end tests that spawn `dist/cli/main.js` never race each
 * other rebuilding the same files. A type error does not stop the emit (the `typecheck` step of
 * `npm test` reports it); a missing output does. `CTXWIN_SKIP_BUILD=1` skips the build for quick
 * runs of tests that do not spawn the CLI.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

export default function buildOnce(): void {
  if (process.env["CTXWIN_SKIP_BUILD"] === "1") return;
  const root = path.resolve(import.meta.dirname, "..");
  const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
  const run = (command: string, args: string[]) => spawnSync(command, args, { cwd: root, encoding: "utf8" });
  const built = run(process.execPath, [path.join(root, "scripts", "build-package.mjs")]);
  if (built.status !== 0) throw new Error(`building dist/ before the tests failed:\n${built.stdout}\n${built.stderr}`);
  if (!existsSync(path.join(root, "dist", "cli", "main.js")))
    throw new Error("building dist/ before the tests did not produce dist/cli/main.js");
  if (existsSync(path.join(root, "web", "vite.config.ts"))) {
    const web = run(bin("vite"), ["build", "--config", path.join("web", "vite.config.ts"), "--logLevel", "error"]);
    if (web.status !== 0) throw new Error(`building the web UI before the tests failed:\n${web.stdout}\n${web.stderr}`);
  }
}
