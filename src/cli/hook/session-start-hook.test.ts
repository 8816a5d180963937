/**
 * The SessionStart hook on recorded hook inputs (Claude Code's and Codex's shapes) against real
 * SQLite stores in temporary folders: a compaction transcript, bad input, a missing transcript,
 * a locked store, and an import that outlives its time budget.
 */
import { constants, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importFiles } from "../../import/import-files.js";
import { openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";
import { MAX_GUIDANCE_CHARS } from "./recovery-guidance.js";
import { runSessionStartHook, type SessionStartHookOutcome } from "./session-start-hook.js";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "import", "fixtures");
const CLAUDE_SESSION = "5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37";
const CODEX_SESSION = "01b2c3d4-e5f6-7a8b-9c0d-1e2f3a4b5c6d";

let folder: string;
let stores: HistoryStore[];

beforeEach(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), "ctxwin-hook-"));
  stores = [];
});

afterEach(async () => {
  for (const store of stores) await store.close();
  rmSync(folder, { recursive: true, force: true });
});

const databasePath = () => path.join(folder, "ctxwin.db");

function opener({ busyTimeoutMs }: { busyTimeoutMs?: number } = {}): { open: () => HistoryStore; opened: () => number } {
  let count = 0;
  return {
    open: () => {
      count += 1;
      const store = openStore({ path: databasePath(), ...(busyTimeoutMs === undefined ? {} : { busyTimeoutMs }) });
      stores.push(store);
      return store;
    },
    opened: () => count,
  };
}

/** Claude Code's SessionStart input, as it writes it to the hook's stdin. */
function claudeCodeInput(transcriptPath: string, source = "compact"): string {
  return JSON.stringify({ session_id: CLAUDE_SESSION, transcript_path: transcriptPath, cwd: "/home/dev/shop-api", hook_event_name: "SessionStart", source });
}

function claudeTranscript(lines?: number): string {
  const file = path.join(folder, `${CLAUDE_SESSION}.jsonl`);
  const text = readFileSync(path.join(fixtures, "claude-code-session.jsonl"), "utf8");
  writeFileSync(file, lines === undefined ? text : `${text.split("\n").slice(0, lines).join("\n")}\n`);
  return file;
}

function guidanceOf(outcome: SessionStartHookOutcome): string {
  expect(outcome.stdout).toBeDefined();
  const parsed = JSON.parse(outcome.stdout ?? "") as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(parsed.hookSpecificOutput.hookEventName).toBe("SessionStart");
  return parsed.hookSpecificOutput.additionalContext;
}

describe("after a compaction", () => {
  it("imports the transcript and names the session, its items and windows, and one example call", async () => {
    const transcript = claudeTranscript();
    const store = opener();
    const outcome = await runSessionStartHook({ stdin: claudeCodeInput(transcript), client: "claude-code", openStore: store.open });

    expect(outcome.problems).toEqual([]);
    const summary = await outcome.store!.session(`claude-code:${CLAUDE_SESSION}`);
    expect(summary?.windowCount).toBe(2);
    const guidance = guidanceOf(outcome);
    expect(guidance.length).toBeLessThanOrEqual(MAX_GUIDANCE_CHARS);
    expect(guidance).toMatch(/^\[ctxwin tool guidance/);
    expect(guidance).toContain(`"claude-code:${CLAUDE_SESSION}"`);
    expect(guidance).toContain(`${summary?.lastSeq} items in 2 windows precede this point`);
    expect(guidance).toContain("just compacted");
    expect(guidance).toContain('{"action":"search"');
  });

  it("adds nothing to the store the second time and says the same", async () => {
    const transcript = claudeTranscript();
    const first = await runSessionStartHook({ stdin: claudeCodeInput(transcript), client: "claude-code", openStore: opener().open });
    const rows = (await first.store!.session(`claude-code:${CLAUDE_SESSION}`))?.lastSeq;
    const second = await runSessionStartHook({ stdin: claudeCodeInput(transcript), client: "claude-code", openStore: opener().open });
    expect((await second.store!.session(`claude-code:${CLAUDE_SESSION}`))?.lastSeq).toBe(rows);
    expect(second.stdout).toBe(first.stdout);
  });

  it("reads Codex's input (transcript_path may be null) and names the codex session", async () => {
    const rollout = path.join(folder, "rollout.jsonl");
    copyFileSync(path.join(fixtures, "codex-0.171.0", "rollout-2026-12-01T11-00-00-01b2c3d4-e5f6-7a8b-9c0d-1e2f3a4b5c6d.jsonl"), rollout);
    const input = { session_id: CODEX_SESSION, transcript_path: rollout, cwd: "/home/dev/billing", hook_event_name: "SessionStart", model: "gpt-5", source: "resume" };
    const outcome = await runSessionStartHook({ stdin: JSON.stringify(input), client: "codex", openStore: opener().open });
    expect(outcome.problems).toEqual([]);
    const guidance = guidanceOf(outcome);
    expect(guidance).toContain(`"codex:${CODEX_SESSION}"`);
    expect(guidance).toContain("This resumed session");

    const withoutTranscript = await runSessionStartHook({ stdin: JSON.stringify({ ...input, transcript_path: null }), client: "codex", openStore: opener().open });
    expect(withoutTranscript.problems).toEqual(["the hook input names no transcript_path; nothing was imported"]);
    expect(guidanceOf(withoutTranscript)).toContain(`"codex:${CODEX_SESSION}"`);
  });

  it("on Codex's PostCompact input imports the rollout and prints nothing (that hook cannot add context)", async () => {
    const rollout = path.join(folder, "rollout.jsonl");
    copyFileSync(path.join(fixtures, "codex-0.171.0", "rollout-2026-12-01T11-00-00-01b2c3d4-e5f6-7a8b-9c0d-1e2f3a4b5c6d.jsonl"), rollout);
    const input = { session_id: CODEX_SESSION, turn_id: "t1", transcript_path: rollout, cwd: "/home/dev/billing", hook_event_name: "PostCompact", model: "gpt-5", trigger: "auto" };
    const outcome = await runSessionStartHook({ stdin: JSON.stringify(input), client: "codex", openStore: opener().open });
    expect(outcome.problems).toEqual([]);
    expect(outcome.stdout).toBeUndefined();
    expect((await outcome.store!.session(`codex:${CODEX_SESSION}`))?.lastSeq).toBeGreaterThan(0);
  });
});

describe("bad input fails open", () => {
  it.each([
    ["empty", "", /no hook input/],
    ["blank", "  \n", /no hook input/],
    ["malformed", '{"session_id": ', /not JSON/],
    ["not an object", "[1, 2]", /not a JSON object/],
    ["without a session id", JSON.stringify({ hook_event_name: "SessionStart", transcript_path: "/x.jsonl" }), /no session_id/],
    ["for another event", JSON.stringify({ hook_event_name: "PreToolUse", session_id: "a" }), /not SessionStart/],
  ])("%s input: a problem, no output, the store never opened", async (_name, stdin, problem) => {
    const store = opener();
    const outcome = await runSessionStartHook({ stdin, client: "claude-code", openStore: store.open });
    expect(outcome.stdout).toBeUndefined();
    expect(outcome.problems).toHaveLength(1);
    expect(outcome.problems[0]).toMatch(problem);
    expect(store.opened()).toBe(0);
  });

  it("a transcript that does not exist: a problem, guidance only from what was stored before", async () => {
    const missing = path.join(folder, "gone", `${CLAUDE_SESSION}.jsonl`);
    const fresh = await runSessionStartHook({ stdin: claudeCodeInput(missing), client: "claude-code", openStore: opener().open });
    expect(fresh.stdout).toBeUndefined();
    expect(fresh.problems[0]).toBe(`the transcript ${missing} does not exist; nothing was imported`);
    expect(fresh.problems[1]).toMatch(/holds nothing of session/);

    await runSessionStartHook({ stdin: claudeCodeInput(claudeTranscript()), client: "claude-code", openStore: opener().open });
    const known = await runSessionStartHook({ stdin: claudeCodeInput(missing), client: "claude-code", openStore: opener().open });
    expect(known.problems).toHaveLength(1);
    expect(guidanceOf(known)).toContain(`claude-code:${CLAUDE_SESSION}`);
  });

  it("a locked store: the import fails, nothing half-written, guidance from the rows stored before", async () => {
    const transcript = claudeTranscript(8);
    const seed = opener().open();
    await importFiles({ store: seed, format: "claude-code", paths: [transcript], settleMs: 0 });
    const before = (await seed.session(`claude-code:${CLAUDE_SESSION}`))!.lastSeq;
    claudeTranscript();
    const holder = new Database(databasePath());
    holder.exec("BEGIN EXCLUSIVE");
    try {
      const outcome = await runSessionStartHook({ stdin: claudeCodeInput(transcript), client: "claude-code", openStore: opener({ busyTimeoutMs: 50 }).open });
      expect(outcome.problems).toHaveLength(1);
      expect(outcome.problems[0]).toMatch(/^importing .* failed \(.*\); the guidance counts what was stored before$/);
      expect(guidanceOf(outcome)).toContain(`${before} items`);
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
    expect((await seed.session(`claude-code:${CLAUDE_SESSION}`))!.lastSeq).toBe(before);
  });
});

describe("a bounded time", () => {
  it("answers at its budget with what is stored while the import still waits for the transcript", async () => {
    const partial = claudeTranscript(8);
    const seed = opener().open();
    await importFiles({ store: seed, format: "claude-code", paths: [partial], settleMs: 0 });
    const before = (await seed.session(`claude-code:${CLAUDE_SESSION}`))!.lastSeq;
    // A named pipe nobody writes to: the import cannot finish, whatever the machine's speed.
    const fifo = path.join(folder, "pipe", `${CLAUDE_SESSION}.jsonl`);
    execFileSync("mkdir", ["-p", path.dirname(fifo)]);
    execFileSync("mkfifo", [fifo]);

    const outcome = await runSessionStartHook({ stdin: claudeCodeInput(fifo), client: "claude-code", openStore: opener().open, budgetMs: 50 });
    expect(outcome.pendingImport).toBeDefined();
    expect(outcome.problems).toEqual([]);
    const guidance = guidanceOf(outcome);
    expect(guidance).toContain(`${before} items`);
    expect(guidance).toContain("still being imported");

    // Let the waiting reads end (an empty pipe, closed), then the import settles.
    let settled = false;
    void outcome.pendingImport!.then(() => (settled = true));
    while (!settled) {
      try {
        const writer = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
        await writer.close();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENXIO") throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await seed.session(`claude-code:${CLAUDE_SESSION}`))!.lastSeq).toBe(before);
  });
});
