// Lint configuration. The `ctxwin/layer-direction` rule enforces docs/design.md §2:
// imports only point downward (core < store < tools < session < agent < front ends),
// and `core/` imports no node built-ins and no I/O packages.
import { builtinModules } from "node:module";
import path from "node:path";
import tseslint from "typescript-eslint";

const layerRank = { core: 0, store: 1, tools: 2, import: 2, session: 3, agent: 4, server: 5, web: 5, eval: 5, cli: 6 };
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const ioPackages = new Set(["better-sqlite3"]);

function layerOf(file) {
  const relative = path.relative(path.resolve("src"), file);
  if (relative.startsWith("..")) return undefined;
  const first = relative.split(path.sep)[0];
  return first in layerRank ? first : undefined;
}

const layerDirection = {
  meta: {
    type: "problem",
    docs: { description: "imports only point downward through the layers of docs/design.md §2" },
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
      const target = layerOf(path.resolve(path.dirname(file), source));
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
