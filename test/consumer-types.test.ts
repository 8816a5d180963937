/**
 * The published types compile in a user's project (issue 49): a consumer file (consumer/) that
 * imports every entry and reads `(await agent.generate(…)).ctxwin` is compiled with
 * `skipLibCheck: false` against a copy of the built package (package.json and dist/'s .d.ts), next
 * to its dependencies and peers only: no devDependency (no `@types/better-sqlite3`, `@types/pg`).
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const project = mkdtempSync(path.join(os.tmpdir(), "ctxwin-consumer-"));
afterAll(() => rmSync(project, { recursive: true, force: true }));

interface PackageJson {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
}

/** The consumer project: its own `@types/node` and typescript, the package and what it depends on. */
function setUpProject(): void {
  const packageJson = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as PackageJson;
  const modules = path.join(project, "node_modules");
  const installed = path.join(modules, "ctxwin");
  mkdirSync(installed, { recursive: true });
  cpSync(path.join(root, "package.json"), path.join(installed, "package.json"));
  cpSync(path.join(root, "dist"), path.join(installed, "dist"), {
    recursive: true,
    filter: (source) => !source.endsWith(".map"),
  });
  const linked = [
    ...Object.keys(packageJson.dependencies),
    ...Object.keys(packageJson.peerDependencies),
    "@types/node",
  ];
  for (const name of linked) {
    mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
    symlinkSync(path.join(root, "node_modules", name), path.join(modules, name), "dir");
  }
  cpSync(path.join(import.meta.dirname, "consumer", "consumer.ts"), path.join(project, "consumer.ts"));
  const compilerOptions = {
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    module: "nodenext",
    target: "es2022",
    types: ["node"],
  };
  writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["consumer.ts"] }));
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ type: "module", private: true }));
}

describe("a user's project", () => {
  // tsc checks the AI SDK's declarations too (skipLibCheck false): tens of seconds on a loaded 2-core machine.
  it("compiles against the packed package with skipLibCheck false and no devDependencies", { timeout: 300_000 }, () => {
    setUpProject();
    const result = spawnSync(
      process.execPath,
      [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", project],
      { cwd: project, encoding: "utf8" },
    );
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
