/**
 * The SessionStart hook on recorded hook inputs (Claude Code's and Codex's shapes) against real
 * SQLite stores in temporary folders: a compaction transcript, bad input, a missing transcript,
 * a locked store, an import that outlives its time budget, special files, and guidance the
 * session already carries.
 */
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importFiles } from "../../import/import-files.js";
import { advancingOnAppend } from "../../import/test-support/advancing-clock.js";
import { writeLongTranscript } from "../../import/test-support/long-transcript.js";
import { openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";
import { carriesGuidance } from "./carried-guidance.js";
import { MAX_GUIDANCE_CHARS } from "./recovery-guidance.js";
import { runSessionStartHook, type SessionStartHookOutcome } from "./session-start-hook.js";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "import", "fixtures");
const CLAUDE_SESSION = "5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37";
const CODEX_SESSION = "01b2c3d4-e5f6-7a8b-9c0d-1e2f3a4b5c6d";
/** A real session resumed five times with the hook, then compacted (the shared data, outside the repository). */
const recorded = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../shared/data/transcripts/claude-code-2.1.197-interactive/-home-dev-work-cc-proj2/e2907450-ff6e-4a0f-984b-39989f825379.jsonl",
);

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

function opener({ busyTimeoutMs }: { busyTimeoutMs?: number } = {}): {
  open: () => HistoryStore;
  opened: () => number;
} {
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
  return JSON.stringify({
    session_id: CLAUDE_SESSION,
    transcript_path: transcriptPath,
    cwd: "/home/dev/shop-api",
    hook_event_name: "SessionStart",
    source,
  });
}

function claudeTranscript(lines?: number): string {
  const file = path.join(folder, `${CLAUDE_SESSION}.jsonl`);
  const text = readFileSync(path.join(fixtures, "claude-code-session.jsonl"), "utf8");
  writeFileSync(file, lines === undefined ? text : `${text.split("\n").slice(0, lines).join("\n")}\n`);
  return file;
}

/** Codex's recorded rollout of CODEX_SESSION, copied into the test's folder. */
function codexRollout(): string {
  const file = path.join(folder, "rollout.jsonl");
  copyFileSync(
    path.join(fixtures, "codex-0.171.0", "rollout-2026-12-01T11-00-00-01b2c3d4-e5f6-7a8b-9c0d-1e2f3a4b5c6d.jsonl"),
    file,
  );
  return file;
}

/** Runs the hook as Codex does, on `fields` over what every Codex hook input for CODEX_SESSION carries. */
function runCodexHook(fields: Record<string, unknown>): Promise<SessionStartHookOutcome> {
  return runSessionStartHook({
    stdin: JSON.stringify({ session_id: CODEX_SESSION, cwd: "/home/dev/billing", model: "gpt-5", ...fields }),
    client: "codex",
    openStore: opener().open,
  });
}

function guidanceOf(outcome: SessionStartHookOutcome): string {
  expect(outcome.stdout).toBeDefined();
  const parsed = JSON.parse(outcome.stdout ?? "") as {
    hookSpecificOutput: { hookEventName: string; additionalContext: string };
  };
  expect(parsed.hookSpecificOutput.hookEventName).toBe("SessionStart");
  return parsed.hookSpecificOutput.additionalContext;
}

describe("after a compaction", () => {
  it("imports the transcript and names the session, its items and windows, and one example call", async () => {
    const transcript = claudeTranscript();
    const store = opener();
    const outcome = await runSessionStartHook({
      stdin: claudeCodeInput(transcript),
      client: "claude-code",
      openStore: store.open,
    });

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
    const first = await runSessionStartHook({
      stdin: claudeCodeInput(transcript),
      client: "claude-code",
      openStore: opener().open,
    });
    const rows = (await first.store!.session(`claude-code:${CLAUDE_SESSION}`))?.lastSeq;
    const second = await runSessionStartHook({
      stdin: claudeCodeInput(transcript),
      client: "claude-code",
      openStore: opener().open,
    });
    expect((await second.store!.session(`claude-code:${CLAUDE_SESSION}`))?.lastSeq).toBe(rows);
    expect(second.stdout).toBe(first.stdout);
  });

  it("reads Codex's input (transcript_path may be null) and names the codex session", async () => {
    const input = { transcript_path: codexRollout(), hook_event_name: "SessionStart", source: "resume" };
    const outcome = await runCodexHook(input);
    expect(outcome.problems).toEqual([]);
    const guidance = guidanceOf(outcome);
    expect(guidance).toContain(`"codex:${CODEX_SESSION}"`);
    expect(guidance).toContain("This resumed session");

    const withoutTranscript = await runCodexHook({ ...input, transcript_path: null });
    expect(withoutTranscript.problems).toEqual(["the hook input names no transcript_path; nothing was imported"]);
    expect(guidanceOf(withoutTranscript)).toContain(`"codex:${CODEX_SESSION}"`);
  });

  it("on Codex's PostCompact input imports the rollout and prints nothing (that hook cannot add context)", async () => {
    const outcome = await runCodexHook({
      turn_id: "t1",
      transcript_path: codexRollout(),
      hook_event_name: "PostCompact",
      trigger: "auto",
    });
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
    [
      "without a session id",
      JSON.stringify({ hook_event_name: "SessionStart", transcript_path: "/x.jsonl" }),
      /no session_id/,
    ],
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
    const fresh = await runSessionStartHook({
      stdin: claudeCodeInput(missing),
      client: "claude-code",
      openStore: opener().open,
    });
    expect(fresh.stdout).toBeUndefined();
    expect(fresh.problems[0]).toBe(`the transcript ${missing} does not exist; nothing was imported`);
    expect(fresh.problems[1]).toMatch(/holds nothing of session/);

    await runSessionStartHook({
      stdin: claudeCodeInput(claudeTranscript()),
      client: "claude-code",
      openStore: opener().open,
    });
    const known = await runSessionStartHook({
      stdin: claudeCodeInput(missing),
      client: "claude-code",
      openStore: opener().open,
    });
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
      const outcome = await runSessionStartHook({
        stdin: claudeCodeInput(transcript),
        client: "claude-code",
        openStore: opener({ busyTimeoutMs: 50 }).open,
      });
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
  it("stops the import at its budget, says the history is partial, and hands the rest on; the next run goes on", async () => {
    const transcript = path.join(folder, `${CLAUDE_SESSION}.jsonl`);
    await writeLongTranscript({ file: transcript, sessionId: CLAUDE_SESSION, lines: 1_600 });
    const clock = { time: Date.now() };
    const now = () => clock.time;
    // Each committed batch of 500 rows moves the clock 40 s; the budget (60 s) ends after the second.
    const store = opener();
    const first = await runSessionStartHook({
      stdin: claudeCodeInput(transcript, "resume"),
      client: "claude-code",
      openStore: () => advancingOnAppend(store.open(), clock, 40_000),
      budgetMs: 60_000,
      now,
    });
    expect(first.problems).toEqual([]);
    expect(first.pendingImport).toBeUndefined();
    expect(first.continueImport).toBe(transcript);
    const partial = guidanceOf(first);
    expect(partial).toContain("1000 items in 1 window are stored so far");
    expect(partial).toContain("The history is still partial");

    const second = await runSessionStartHook({
      stdin: claudeCodeInput(transcript, "resume"),
      client: "claude-code",
      openStore: opener().open,
      budgetMs: 60_000,
      now,
    });
    expect(second.continueImport).toBeUndefined();
    const whole = guidanceOf(second);
    expect(whole).not.toContain("partial");
    const rows = (await second.store!.session(`claude-code:${CLAUDE_SESSION}`))!.lastSeq;
    expect(rows).toBeGreaterThan(1_000);
    expect(whole).toContain(`${rows} items in 1 window precede this point`);
  });

  it.each([
    ["a named pipe", "a named pipe (FIFO)"],
    ["a folder", "a folder"],
  ])(
    "a transcript_path that is %s is refused at once; the guidance comes from what was stored",
    async (kind, words) => {
      const seed = opener().open();
      await importFiles({ store: seed, format: "claude-code", paths: [claudeTranscript()], settleMs: 0 });
      const stored = (await seed.session(`claude-code:${CLAUDE_SESSION}`))!.lastSeq;
      const special = path.join(folder, "special", `${CLAUDE_SESSION}.jsonl`);
      mkdirSync(path.dirname(special));
      // Nobody ever writes to the pipe: reading it would wait forever.
      if (kind === "a named pipe") execFileSync("mkfifo", [special]);
      else mkdirSync(special);

      const outcome = await runSessionStartHook({
        stdin: claudeCodeInput(special),
        client: "claude-code",
        openStore: opener().open,
      });
      expect(outcome.problems).toEqual([`the transcript ${special} is ${words}, not a file; nothing was imported`]);
      expect(outcome.pendingImport).toBeUndefined();
      expect(outcome.continueImport).toBeUndefined();
      expect(guidanceOf(outcome)).toContain(`${stored} items`);
    },
  );
});

describe("what the guidance says, and when it is not repeated", () => {
  it("speaks of a summary only after a compaction", async () => {
    const transcript = claudeTranscript();
    const compact = guidanceOf(
      await runSessionStartHook({
        stdin: claudeCodeInput(transcript, "compact"),
        client: "claude-code",
        openStore: opener().open,
      }),
    );
    expect(compact).toContain("Your context was just compacted");
    expect(compact).toContain("a detail the summary lacks");
    for (const [source, opening] of [
      ["resume", "This resumed session's"],
      ["startup", "This session's"],
      ["clear", "This session's"],
    ] as const) {
      const text = guidanceOf(
        await runSessionStartHook({
          stdin: claudeCodeInput(transcript, source),
          client: "claude-code",
          openStore: opener().open,
        }),
      );
      expect(text).toContain(opening);
      expect(text).not.toContain("summary");
      expect(text).toContain("a detail of an earlier turn that your context does not hold");
    }
  });

  /** The transcript as Claude Code leaves it after the hook's output for `source` was added (its two attachment lines). */
  function withHookOutput(transcript: string, source: string, guidance: string): void {
    const last = readFileSync(transcript, "utf8").trimEnd().split("\n").at(-1)!;
    const parent = (JSON.parse(last) as { uuid: string }).uuid;
    const common = {
      isSidechain: false,
      cwd: "/home/dev/shop-api",
      sessionId: CLAUDE_SESSION,
      timestamp: "2026-12-06T23:19:17.000Z",
      type: "attachment",
    };
    const stdout = JSON.stringify({
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: guidance },
    });
    const success = {
      hookName: `SessionStart:${source}`,
      toolUseID: "t-1",
      hookEvent: "SessionStart",
      content: "",
      stdout,
      type: "hook_success",
    };
    const context = {
      content: [guidance],
      hookName: `SessionStart:${source}`,
      toolUseID: "t-1",
      hookEvent: "SessionStart",
      type: "hook_additional_context",
    };
    appendFileSync(
      transcript,
      `${JSON.stringify({ parentUuid: parent, ...common, attachment: success, uuid: "a1-success" })}\n`,
    );
    appendFileSync(
      transcript,
      `${JSON.stringify({ parentUuid: "a1-success", ...common, attachment: context, uuid: "a1-context" })}\n`,
    );
  }

  it("a resumed session that carries the guidance since its last compaction gets none again; after the next compaction it does", async () => {
    const transcript = claudeTranscript();
    const first = await runSessionStartHook({
      stdin: claudeCodeInput(transcript, "resume"),
      client: "claude-code",
      openStore: opener().open,
    });
    withHookOutput(transcript, "resume", guidanceOf(first));

    const again = await runSessionStartHook({
      stdin: claudeCodeInput(transcript, "resume"),
      client: "claude-code",
      openStore: opener().open,
    });
    expect(again.problems).toEqual([]);
    expect(again.guidanceCarried).toBe(true);
    expect(again.stdout).toBeUndefined();

    // Claude Code's compaction: a compact_boundary line, then the summary; the guidance before it is gone from the context.
    const boundary = {
      parentUuid: null,
      logicalParentUuid: "a1-context",
      isSidechain: false,
      type: "system",
      subtype: "compact_boundary",
      content: "Conversation compacted",
      uuid: "b-2",
      timestamp: "2026-12-06T23:20:00.000Z",
      sessionId: CLAUDE_SESSION,
      compactMetadata: { trigger: "manual", preTokens: 21723 },
    };
    appendFileSync(transcript, `${JSON.stringify(boundary)}\n`);
    const compacted = await runSessionStartHook({
      stdin: claudeCodeInput(transcript, "compact"),
      client: "claude-code",
      openStore: opener().open,
    });
    expect(compacted.guidanceCarried).toBe(false);
    expect(guidanceOf(compacted)).toContain("just compacted");
  });

  it.skipIf(!existsSync(recorded))(
    "finds the earlier guidance in a real Claude Code transcript resumed five times (../shared)",
    async () => {
      const lines = readFileSync(recorded, "utf8").trimEnd().split("\n");
      // Line 21 is the second resume's guidance, line 51 the compaction's boundary (before the compact hook's own output).
      const beforeCompaction = path.join(folder, "e2907450-ff6e-4a0f-984b-39989f825379.jsonl");
      writeFileSync(beforeCompaction, `${lines.slice(0, 45).join("\n")}\n`);
      expect(await carriesGuidance({ file: beforeCompaction, format: "claude-code" })).toBe(true);
      writeFileSync(beforeCompaction, `${lines.slice(0, 55).join("\n")}\n`);
      expect(await carriesGuidance({ file: beforeCompaction, format: "claude-code" })).toBe(false);
      writeFileSync(beforeCompaction, `${lines.join("\n")}\n`);
      expect(await carriesGuidance({ file: beforeCompaction, format: "claude-code" })).toBe(true);
    },
  );
});
