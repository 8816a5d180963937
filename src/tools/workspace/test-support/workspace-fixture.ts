/**
 * Test helpers: a temporary workspace folder filled from a map of files, and a call that goes
 * through a tool the way the AI SDK does (the tool's own input schema, then `execute`). Test-only.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asSchema, type ToolSet } from "ai";
import { afterEach } from "vitest";

const created: string[] = [];

afterEach(() => {
  for (const folder of created.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

/** Creates a temporary folder (removed after the test) with `files` (path → content) inside `root/`. */
export function makeWorkspace(files: Record<string, string | Uint8Array> = {}): { base: string; root: string } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-workspace-")));
  created.push(base);
  const root = path.join(base, "root");
  fs.mkdirSync(root);
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return { base, root };
}

let counter = 0;

/** Calls one tool of a set with raw input; fails the test if the tool's schema refuses it or the tool throws. */
export async function callTool(tools: ToolSet, name: string, input: unknown): Promise<string> {
  const selected = tools[name];
  if (selected === undefined) throw new Error(`no tool ${name}`);
  const validation = await asSchema(selected.inputSchema).validate!(input);
  if (!validation.success)
    throw new Error(`the input schema of ${name} refused ${JSON.stringify(input)}: ${String(validation.error)}`);
  const result: unknown = await selected.execute!(validation.value, {
    toolCallId: `call-${(counter += 1)}`,
    messages: [],
    context: {},
  });
  if (typeof result !== "string") throw new Error(`${name} returned a ${typeof result}, not text`);
  return result;
}
