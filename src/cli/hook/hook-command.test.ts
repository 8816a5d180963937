/**
 * `ctxwin hook session-start` as a coding CLI runs it: the built binary, the hook's JSON on
 * stdin. Whatever happens, exit code 0 (the status both CLIs treat as "continue") and at most
 * one line on stderr; stdout holds the hook's JSON or nothing.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { importFiles } from "../../import/import-files.js";
import { openStore } from "../../store/open-store.js";
import { CTXWIN_BINARY, runProgram, type CtxwinExit } from "../test-support/run-ctxwin.js";
import { backgroundImportPidFile } from "./background-import.js";
import {
  CLAUDE_CODE_FIXTURE as fixture,
  CLAUDE_CODE_SESSION_ID as SESSION,
  compactionHookInput,
} from "../../import/test-support/claude-code-fixture.js";

const folder = mkdtempSync(path.join(os.tmpdir(), "ctxwin-hook-cli-"));

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** `keepOpen`: the stdin pipe is never closed, as by a CLI that forgets to. */
function runHook(
  args: readonly string[],
  stdin: string,
  { keepOpen = false }: { keepOpen?: boolean } = {},
): Promise<CtxwinExit> {
  return runProgram(process.execPath, [CTXWIN_BINARY, "hook", "session-start", ...args], {
    cwd: folder,
    env: { ...process.env, NO_COLOR: "1" },
    stdin,
    keepStdinOpen: keepOpen,
  });
}

it("prints Claude Code's hookSpecificOutput after a compaction", async () => {
  const transcript = path.join(folder, `${SESSION}.jsonl`);
  copyFileSync(fixture, transcript);
  const input = compactionHookInput(transcript, folder);
  const result = await runHook(["--client", "claude-code", "--dir", folder], JSON.stringify(input));
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  const output = JSON.parse(result.stdout) as {
    hookSpecificOutput: { hookEventName: string; additionalContext: string };
  };
  expect(output.hookSpecificOutput.hookEventName).toBe("SessionStart");
  expect(output.hookSpecificOutput.additionalContext).toContain(`session_id "claude-code:${SESSION}"`);
});

it.each([
  ["empty stdin", [], ""],
  ["malformed JSON", [], "{not json"],
  ["an unknown client", ["--client", "cursor"], "{}"],
  ["a bad budget", ["--budget-ms", "soon"], "{}"],
  [
    "a missing transcript",
    [],
    JSON.stringify({ session_id: "0a0b", transcript_path: "/nowhere/0a0b.jsonl", hook_event_name: "SessionStart" }),
  ],
])("%s: exit code 0, one line on stderr, nothing on stdout", async (_name, args, stdin) => {
  const result = await runHook(["--dir", folder, ...args], stdin);
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/^ctxwin hook session-start: [^\n]+\n$/);
});

it("answers when the CLI never closes stdin: the input read so far, or one line saying none came", async () => {
  const transcript = path.join(folder, `${SESSION}.jsonl`);
  copyFileSync(fixture, transcript);
  const input = compactionHookInput(transcript, folder);
  const answered = await runHook(["--dir", folder], JSON.stringify(input), { keepOpen: true });
  expect(answered.status).toBe(0);
  expect(answered.stderr).toBe("");
  expect(answered.stdout).toContain(`session_id \\"claude-code:${SESSION}\\"`);

  const silent = await runHook(["--dir", folder], "", { keepOpen: true });
  expect(silent.status).toBe(0);
  expect(silent.stdout).toBe("");
  expect(silent.stderr).toMatch(/^ctxwin hook session-start: no hook input on stdin[^\n]*\n$/);
});

it("a transcript_path that is a named pipe: refused at once, exit code 0, one line naming it", async () => {
  const fifo = path.join(folder, "pipe.jsonl");
  execFileSync("mkfifo", [fifo]);
  const input = { session_id: "0a0b", transcript_path: fifo, hook_event_name: "SessionStart", source: "resume" };
  const result = await runHook(["--dir", folder], JSON.stringify(input));
  expect(result.status).toBe(0);
  expect(result.stdout).toBe("");
  expect(result.stderr).toContain(`the transcript ${fifo} is a named pipe (FIFO), not a file; nothing was imported`);
});

it("an import cut short by the budget is finished by a background import of the same transcript into the same store", async () => {
  const project = mkdtempSync(path.join(os.tmpdir(), "ctxwin-hook-worker-"));
  try {
    const transcript = path.join(project, `${SESSION}.jsonl`);
    copyFileSync(fixture, transcript);
    const input = compactionHookInput(transcript, project);
    // A budget of 0 ms: the hook's own import stops before its first file.
    const result = await runHook(["--dir", project, "--budget-ms", "0"], JSON.stringify(input));
    expect(result.status).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/holds nothing of session .* yet; no guidance was added\n$/);

    const expected = openStore({ path: path.join(project, "expected.db") });
    await importFiles({ store: expected, format: "claude-code", paths: [transcript] });
    const rows = await expected.lastSeq(`claude-code:${SESSION}`);
    await expected.close();
    const database = path.join(project, ".ctxwin", "ctxwin.db");
    // The worker runs on its own; wait for it to commit (the test's timeout bounds the wait).
    for (;;) {
      if (existsSync(database)) {
        const store = openStore({ path: database, readOnly: true });
        const stored = await store.lastSeq(`claude-code:${SESSION}`);
        await store.close();
        if (stored === rows) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const again = await runHook(["--dir", project], JSON.stringify(input));
    expect(again.stdout).toContain(`${rows} items in 2 windows precede this point`);
  } finally {
    rmSync(
      backgroundImportPidFile(["import", "claude-code", path.join(project, `${SESSION}.jsonl`), "--dir", project]),
      { force: true },
    );
    rmSync(project, { recursive: true, force: true });
  }
}, 60_000);
