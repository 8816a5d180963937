import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: path.resolve(".") });

async function layerErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.resolve(file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === "ctxwin/layer-direction").map((message) => message.message);
}

describe("lint rule ctxwin/layer-direction (docs/design.md §2)", () => {
  it.each([
    ["src/core/example.ts", 'import { readFileSync } from "node:fs";', "core/ is pure: it may not import 'node:fs'."],
    ["src/core/example.ts", 'import path from "path";', "core/ is pure: it may not import 'path'."],
    ["src/core/budget/example.ts", 'import Database from "better-sqlite3";', "core/ is pure: it may not import 'better-sqlite3'."],
    ["src/core/example.ts", 'export { openStore } from "../store/open-store.js";', "core/ may not import from store/"],
    ["src/store/example.ts", 'import { memoryTool } from "../tools/memory/memory-tool.js";', "store/ may not import from tools/"],
    ["src/tools/memory/example.ts", 'import { createAgentSession } from "../../session/create-agent-session.js";', "tools/ may not import from session/"],
    ["src/session/example.ts", 'const cli = await import("../cli/main.js");', "session/ may not import from cli/"],
    ["src/session/example.ts", 'import { demoModel } from "../agent/demo/demo-model.js";', "session/ may not import from agent/"],
    ["src/agent/example.ts", 'import { serve } from "../server/serve.js";', "agent/ may not import from server/"],
    ["src/server/example.ts", 'import { main } from "../cli/main.js";', "server/ may not import from cli/"],
  ])("refuses %s: %s", async (file, source, expected) => {
    const errors = await layerErrors(file, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(expected);
  });

  it.each([
    ["src/store/example.ts", 'import { readFileSync } from "node:fs";\nimport { classifyBoundary } from "../core/boundary.js";'],
    ["src/session/example.ts", 'import { sessionHistoryTool } from "../tools/session-history/session-history-tool.js";'],
    ["src/core/budget/example.ts", 'import { z } from "zod";\nimport { parseWindowId } from "../windows.js";'],
    ["src/cli/example.ts", 'import { createAgentSession } from "../session/create-agent-session.js";'],
    ["src/agent/example.ts", 'import { createAgentSession } from "../session/create-agent-session.js";'],
    ["src/server/example.ts", 'import { demoModel } from "../agent/demo/demo-model.js";'],
    ["src/cli/example.ts", 'import { startServer } from "../server/start-server.js";'],
  ])("allows %s: downward and pure imports", async (file, source) => {
    expect(await layerErrors(file, source)).toEqual([]);
  });
});
