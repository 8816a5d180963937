/**
 * The package's entries (issue 49, ADR 0078): each loads only what its path uses, and exports
 * only names that the README or docs/ document. Runs the built package (dist/, built by the vitest
 * setup) in fresh node processes that list every package they load.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const packageJson = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  exports: Record<string, unknown>;
};
const entries = Object.keys(packageJson.exports)
  .filter((key) => key !== "./package.json")
  .map((key) => key.replace(/^\.\/?/, "ctxwin/").replace(/\/$/, ""));

/** Records every file the process loads (a synchronous module hook), printed as JSON at exit. */
const listLoaded = `
import { registerHooks } from "node:module";
import { writeSync } from "node:fs";
const loaded = new Set();
registerHooks({ load(url, context, next) { loaded.add(url); return next(url, context); } });
process.on("exit", () => writeSync(1, JSON.stringify([...loaded])));`;

/** The packages (node_modules folder names) a fresh node loads to run `args`. */
function packagesLoaded(args: string[]): string[] {
  const hook = `data:text/javascript,${encodeURIComponent(listLoaded)}`;
  const result = spawnSync(process.execPath, ["--import", hook, ...args], { cwd: root, encoding: "utf8", input: "" });
  expect(result.stderr).toBe("");
  const urls = JSON.parse(result.stdout.slice(result.stdout.lastIndexOf("["))) as string[];
  const names = urls
    .map((url) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
    .filter((name) => name !== undefined);
  return [...new Set(names)].sort();
}

const importing = (entry: string) => ["--input-type=module", "-e", `await import(${JSON.stringify(entry)});`];
const PROVIDERS = ["@ai-sdk/anthropic", "@ai-sdk/google", "@ai-sdk/openai", "@ai-sdk/openai-compatible"];
const ON_THEIR_PATHS = ["gpt-tokenizer", ...PROVIDERS, "@modelcontextprotocol/sdk", "pg", "sqlite-vec", "cli-progress"];

describe("what each entry loads", () => {
  it("import('ctxwin') loads no tokenizer encoding, provider package, MCP SDK, pg, sqlite-vec or importer", () => {
    const loaded = packagesLoaded(importing("ctxwin"));
    expect(loaded).toContain("ai");
    expect(loaded.filter((name) => ON_THEIR_PATHS.includes(name))).toEqual([]);
  });

  it("loads the tokenizer encoding at the first count, and the providers only at ctxwin/models", () => {
    const counted = packagesLoaded([
      "--input-type=module",
      "-e",
      `const { countTokens } = await import("ctxwin"); countTokens("hello");`,
    ]);
    expect(counted).toContain("gpt-tokenizer");
    const models = packagesLoaded(importing("ctxwin/models"));
    expect(models.filter((name) => PROVIDERS.includes(name))).toEqual(PROVIDERS);
  });

  it("ctxwin --version and --help load commander and nothing else", () => {
    for (const flag of ["--version", "--help"])
      expect(packagesLoaded([path.join(root, "dist", "cli", "main.js"), flag])).toEqual(["commander"]);
  });
});

describe("what each entry exports", () => {
  const documentation = [
    readFileSync(path.join(root, "README.md"), "utf8"),
    ...readdirSync(path.join(root, "docs"), { recursive: true })
      .map(String)
      .filter((file) => file.endsWith(".md") && !file.startsWith("adr"))
      .map((file) => readFileSync(path.join(root, "docs", file), "utf8")),
  ].join("\n");

  it("exports only names the README or docs/ (ADRs aside) name in code", () => {
    const script = `const entries = ${JSON.stringify(entries)}; const names = {};
for (const entry of entries) names[entry] = Object.keys(await import(entry));
console.log(JSON.stringify(names));`;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
    const names = JSON.parse(result.stdout) as Record<string, string[]>;
    expect(Object.keys(names)).toEqual(entries);
    const undocumented = Object.entries(names).flatMap(([entry, exported]) =>
      exported
        .filter(
          (name) => !new RegExp(`\`[^\`\\n]*\\b${name}\\b[^\`\\n]*\``).test(documentation) && !codeBlocksName(name),
        )
        .map((name) => `${entry}: ${name}`),
    );
    expect(undocumented).toEqual([]);
  });

  /** Whether a fenced code block of the docs names `name`. */
  function codeBlocksName(name: string): boolean {
    const blocks = documentation.match(/```[\s\S]*?```/g) ?? [];
    return blocks.some((block) => new RegExp(`\\b${name}\\b`).test(block));
  }
});
