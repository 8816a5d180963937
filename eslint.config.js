// Lint configuration. The `ctxwin/layer-direction` rule enforces docs/design.md §2:
// imports only point downward (core < store < tools < session < agent < front ends),
// and `core/` imports no node built-ins and no I/O packages. `web/` (the React UI, at the root) talks
// to the library only over HTTP: from `src/` it may import the server's view types, types only, and the
// pure chart helpers of `src/core/chart/` that it shares with the static eval page (ADR 0102).
// Folders resolve from this file, so the rule holds from any working directory.
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import tseslint from "typescript-eslint";

const layerRank = { core: 0, store: 1, tools: 2, import: 2, session: 3, agent: 4, server: 5, web: 5, eval: 5, cli: 6 };
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const ioPackages = new Set(["better-sqlite3"]);

const root = path.dirname(fileURLToPath(import.meta.url));
const sourceFolder = path.join(root, "src");
const webFolder = path.join(root, "web");
const sharedChartFolder = path.join(sourceFolder, "core", "chart");

const inside = (folder, file) => !path.relative(folder, file).startsWith("..") && !path.isAbsolute(path.relative(folder, file));

function layerOf(file) {
  if (inside(webFolder, file)) return "web";
  if (!inside(sourceFolder, file)) return undefined;
  const first = path.relative(sourceFolder, file).split(path.sep)[0];
  return first in layerRank && first !== "web" ? first : undefined;
}

/** An import or re-export that brings in types only (erased from the bundle). */
function typeOnly(node) {
  if (node.type === "ImportExpression") return false;
  if (node.importKind === "type" || node.exportKind === "type") return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((specifier) => specifier.importKind === "type" || specifier.exportKind === "type");
}

const layerDirection = {
  meta: {
    type: "problem",
    docs: { description: "imports only point downward through the layers of docs/design.md §2; web/ takes only types from src/server" },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const layer = layerOf(file);
    if (layer === undefined) return {};
    function check(node, source) {
      if (typeof source !== "string") return;
      if (layer === "core") {
        const bare = source.startsWith("node:") ? source : source.split("/")[0];
        if (builtins.has(source) || builtins.has(bare) || ioPackages.has(bare)) {
          context.report({ node, message: `core/ is pure: it may not import '${source}'.` });
          return;
        }
      }
      if (!source.startsWith(".")) return;
      const resolved = path.resolve(path.dirname(file), source);
      if (layer === "web") {
        if (!inside(sourceFolder, resolved) || inside(sharedChartFolder, resolved)) return;
        if (layerOf(resolved) !== "server" || !typeOnly(node)) {
          context.report({ node, message: `web/ may import from src/ only the server's view types, type-only, and src/core/chart/ ('${source}').` });
        }
        return;
      }
      const target = layerOf(resolved);
      if (target === undefined || target === layer) return;
      if (layerRank[target] >= layerRank[layer]) {
        context.report({
          node,
          message: `${layer}/ may not import from ${target}/ (imports only point downward: core < store < tools < session < agent < server/web < cli).`,
        });
      }
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", ".bench-cache/**", "artifacts/**"] },
  ...tseslint.configs.recommended,
  {
    plugins: { ctxwin: { rules: { "layer-direction": layerDirection } } },
    rules: {
      "ctxwin/layer-direction": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": "off",
    },
  },
);
