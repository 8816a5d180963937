/**
 * Where the installed package lives, for the files it ships beside its code (package.json, the web
 * UI, the CLI entry). Modules cannot count `../` from themselves: the build bundles them into
 * entries and shared chunks at other depths (ADR 0078), and tests run them from `src/`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(import.meta.url);
let root: string | undefined;
let manifest: PackageJson | undefined;

/**
 * The nearest folder above this module whose package.json names `ctxwin`.
 *
 * @example path.join(packageRoot(), "dist", "web")
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  for (let folder = path.dirname(here); ; folder = path.dirname(folder)) {
    if (isCtxwinPackage(path.join(folder, "package.json"))) return (root = folder);
    if (path.dirname(folder) === folder) throw new Error(`ctxwin: no package.json of ctxwin above ${here}`);
  }
}

/** ctxwin's package.json, read once. */
export function packageJson(): PackageJson {
  return (manifest ??= JSON.parse(readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as PackageJson);
}

interface PackageJson {
  name: string;
  version: string;
  description: string;
}

/** The built CLI, `dist/cli/main.js`. */
export function builtCli(): string {
  return path.join(packageRoot(), "dist", "cli", "main.js");
}

/** The CLI's entry: the built one, or `src/cli/main.ts` when running from the sources (tests). */
export function cliEntry(): string {
  return here.endsWith(".ts") ? path.join(packageRoot(), "src", "cli", "main.ts") : builtCli();
}

function isCtxwinPackage(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { name?: unknown }).name === "ctxwin";
  } catch {
    return false;
  }
}
