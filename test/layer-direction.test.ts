import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { afterEach, describe, expect, it } from "vitest";

/** The repository root, from this file: the rule must hold whatever the working directory. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const eslint = new ESLint({ cwd: root });
const startCwd = process.cwd();
afterEach(() => process.chdir(startCwd));

async function layerErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === "ctxwin/layer-direction")
    .map((message) => message.message);
}

describe("lint rule ctxwin/layer-direction (docs/design.md §2)", () => {
  it.each([
    ["src/core/example.ts", 'import { readFileSync } from "node:fs";', "core/ is pure: it may not import 'node:fs'."],
    ["src/core/example.ts", 'import path from "path";', "core/ is pure: it may not import 'path'."],
    [
      "src/core/budget/example.ts",
      'import Database from "better-sqlite3";',
      "core/ is pure: it may not import 'better-sqlite3'.",
    ],
    ["src/core/example.ts", 'export { openStore } from "../store/open-store.js";', "core/ may not import from store/"],
    [
      "src/store/example.ts",
      'import { memoryTool } from "../tools/memory/memory-tool.js";',
      "store/ may not import from tools/",
    ],
    [
      "src/tools/memory/example.ts",
      'import { createAgentSession } from "../../session/create-agent-session.js";',
      "tools/ may not import from session/",
    ],
    ["src/session/example.ts", 'const cli = await import("../cli/main.js");', "session/ may not import from cli/"],
    [
      "src/session/example.ts",
      'import { demoModel } from "../agent/demo/demo-model.js";',
      "session/ may not import from agent/",
    ],
    ["src/agent/example.ts", 'import { serve } from "../server/serve.js";', "agent/ may not import from server/"],
    ["src/server/example.ts", 'import { main } from "../cli/main.js";', "server/ may not import from cli/"],
    ["src/server/example.ts", 'import { runEval } from "../eval/run-eval.js";', "server/ may not import from eval/"],
    [
      "web/src/api/example.ts",
      'import { startServer } from "../../../src/server/start-server.js";',
      "web/ may import from src/ only",
    ],
    [
      "web/src/api/example.ts",
      'import type { Row } from "../../../src/core/row.js";',
      "web/ may import from src/ only",
    ],
    [
      "web/src/components/example.tsx",
      'export { openStore } from "../../../src/store/open-store.js";',
      "web/ may import from src/ only",
    ],
    [
      "web/src/components/example.tsx",
      'import { usageCost } from "../../../src/core/budget/cost.js";',
      "web/ may import from src/ only",
    ],
  ])("refuses %s: %s", async (file, source, expected) => {
    const errors = await layerErrors(file, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(expected);
  });

  it.each([
    [
      "src/store/example.ts",
      'import { readFileSync } from "node:fs";\nimport { classifyBoundary } from "../core/boundary.js";',
    ],
    [
      "src/session/example.ts",
      'import { sessionHistoryTool } from "../tools/session-history/session-history-tool.js";',
    ],
    ["src/core/budget/example.ts", 'import { z } from "zod";\nimport { parseWindowId } from "../windows.js";'],
    ["src/cli/example.ts", 'import { createAgentSession } from "../session/create-agent-session.js";'],
    ["src/agent/example.ts", 'import { createAgentSession } from "../session/create-agent-session.js";'],
    ["src/server/example.ts", 'import { demoModel } from "../agent/demo/demo-model.js";'],
    ["src/cli/example.ts", 'import { startServer } from "../server/start-server.js";'],
    ["web/src/api/example.ts", 'export type { EvalView } from "../../../src/server/eval-view-types.js";'],
    ["web/src/api/example.ts", 'import { type EvalView } from "../../../src/server/eval-view-types.js";'],
    ["web/src/components/example.tsx", 'import { formatPercent } from "../format";'],
    ["web/src/components/example.tsx", 'import { barShapes } from "../../../src/core/chart/strategy-charts.js";'],
  ])("allows %s: downward and pure imports", async (file, source) => {
    expect(await layerErrors(file, source)).toEqual([]);
  });

  it("holds from any working directory", async () => {
    process.chdir(tmpdir());
    const errors = await layerErrors("src/core/example.ts", 'import { readFileSync } from "node:fs";');
    expect(errors).toEqual(["core/ is pure: it may not import 'node:fs'."]);
  });
});
