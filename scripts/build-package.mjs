// Builds the package into dist/ (ADR 0078): TypeScript's declarations, then each entry bundled with
// its own code by esbuild — the entries that package.json exports and the CLI — with the code they
// share, and each lazily loaded part, in chunks. A process loads a few files instead of hundreds of
// modules; dependencies stay separate packages. Type errors do not stop the build (`npm run
// typecheck` reports them).
import { chmodSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "dist");

// What an earlier build left, the web UI aside (vite builds it into dist/web).
mkdirSync(dist, { recursive: true });
for (const name of readdirSync(dist, { withFileTypes: true }).map((entry) => entry.name))
  if (name !== "web") rmSync(path.join(dist, name), { recursive: true, force: true });

const tsc = spawnSync(
  process.execPath,
  [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"],
  {
    cwd: root,
    stdio: "inherit",
  },
);
if (tsc.error) throw tsc.error;

const entries = [
  "src/index.ts",
  "src/cli/main.ts",
  ...readdirSync(path.join(root, "src", "entries"))
    .filter((file) => file.endsWith(".ts"))
    .map((file) => `src/entries/${file}`),
];

await build({
  absWorkingDir: root,
  entryPoints: entries,
  outdir: "dist",
  outbase: "src",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22",
  packages: "external",
  // Error classes and functions keep their names (`error.name`, stack traces).
  keepNames: true,
  sourcemap: true,
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
});

// `npx ctxwin` runs straight after `npm install`.
chmodSync(path.join(dist, "cli", "main.js"), 0o755);
