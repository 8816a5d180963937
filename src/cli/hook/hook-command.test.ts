/**
 * `ctxwin hook session-start` as a coding CLI runs it: the built binary, the hook's JSON on
 * stdin. Whatever happens, exit code 0 (the status both CLIs treat as "continue") and at most
 * one line on stderr; stdout holds the hook's JSON or nothing.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { CTXWIN_BINARY, runProgram, type CtxwinExit } from "../test-support/run-ctxwin.js";

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "import", "fixtures", "claude-code-session.jsonl");
const SESSION = "5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37";
const folder = mkdtempSync(path.join(os.tmpdir(), "ctxwin-hook-cli-"));

afterAll(() => rmSync(folder, { recursive: true, force: true }));

function runHook(args: readonly string[], stdin: string): Promise<CtxwinExit> {
  return runProgram(process.execPath, [CTXWIN_BINARY, "hook", "session-start", ...args], { cwd: folder, env: { ...process.env, NO_COLOR: "1" }, stdin });
}

it("prints Claude Code's hookSpecificOutput after a compaction", async () => {
  const transcript = path.join(folder, `${SESSION}.jsonl`);
  copyFileSync(fixture, transcript);
  const input = { session_id: SESSION, transcript_path: transcript, cwd: folder, hook_event_name: "SessionStart", source: "compact" };
  const result = await runHook(["--client", "claude-code", "--dir", folder], JSON.stringify(input));
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  const output = JSON.parse(result.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(output.hookSpecificOutput.hookEventName).toBe("SessionStart");
  expect(output.hookSpecificOutput.additionalContext).toContain(`session_id "claude-code:${SESSION}"`);
});

it.each([
  ["empty stdin", [], ""],
  ["malformed JSON", [], "{not json"],
  ["an unknown client", ["--client", "cursor"], "{}"],
  ["a bad budget", ["--budget-ms", "soon"], "{}"],
  ["a missing transcript", [], JSON.stringify({ session_id: "0a0b", transcript_path: "/nowhere/0a0b.jsonl", hook_event_name: "SessionStart" })],
])("%s: exit code 0, one line on stderr, nothing on stdout", async (_name, args, stdin) => {
  const result = await runHook(["--dir", folder, ...args], stdin);
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/^ctxwin hook session-start: [^\n]+\n$/);
});
