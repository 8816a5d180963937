/**
 * `ctxwin hook session-start`: what a coding CLI's SessionStart hook runs (`ctxwin setup` writes
 * the hook). Reads the hook's JSON from stdin, imports the session transcript's new lines for a
 * bounded time, and prints tool guidance for the agent in the JSON both Claude Code and Codex
 * read (`hookSpecificOutput.additionalContext`). It fails open: whatever goes wrong, one line on
 * stderr, exit code 0, and the user's session goes on. Stdin is read for at most
 * `STDIN_DEADLINE_MS`; an import the budget cut short is finished by a detached `ctxwin import`
 * of the same transcript into the same store (ADR 0076).
 */
import { spawn } from "node:child_process";
import { writeSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { openStore, type OpenStoreOptions } from "../../store/open-store.js";
import type { TranscriptFormat } from "../../import/source-files.js";
import { STORE_FLAG, STORE_FLAG_HELP, storeOptionsOf } from "../store-flag.js";
import { startBackgroundImport } from "./background-import.js";
import { DEFAULT_IMPORT_BUDGET_MS, runSessionStartHook } from "./session-start-hook.js";
import { builtCli } from "../../package-root.js";

interface HookOptions {
  client: string;
  dir?: string;
  store?: string;
  budgetMs: string;
}

/** A writer waits this long for another process's lock before the import gives up (ms). */
const HOOK_BUSY_TIMEOUT_MS = 1_000;
/** The hook input is a small JSON object; more than this is not a hook input. */
const MAX_INPUT_BYTES = 1024 * 1024;
/** The CLIs write the input at once and close stdin; the hook reads what came by then (ms). */
export const STDIN_DEADLINE_MS = 1_000;
const CLIENTS: readonly TranscriptFormat[] = ["claude-code", "codex"];

/**
 * Adds `hook session-start` to a commander program.
 *
 * @example registerHookCommand({ program: new Command("ctxwin") });
 */
export function registerHookCommand({ program }: { program: Command }): Command {
  const hook = program
    .command("hook")
    .description("Commands that coding CLIs run as hooks (written by 'ctxwin setup')");
  hook
    .command("session-start")
    .description(
      "SessionStart hook: import the session's new transcript lines, print session_history guidance for the agent",
    )
    .option("--client <name>", "whose hook input this is: claude-code or codex", "claude-code")
    .option(
      "--dir <project>",
      "project directory whose .ctxwin/ctxwin.db holds the history (default: the current directory)",
    )
    .option(STORE_FLAG, STORE_FLAG_HELP)
    .option("--budget-ms <ms>", "import for at most this long before answering", String(DEFAULT_IMPORT_BUDGET_MS))
    .allowUnknownOption()
    .action(async (options: HookOptions) => {
      const fail = (problem: string): void => {
        writeSync(2, `ctxwin hook session-start: ${problem}\n`);
      };
      const client = CLIENTS.find((name) => name === options.client);
      const budgetMs = Number(options.budgetMs);
      if (client === undefined)
        return fail(`--client must be claude-code or codex; got '${options.client}'. Nothing was done.`);
      if (!Number.isFinite(budgetMs) || budgetMs < 0)
        return fail(`--budget-ms must be a number of milliseconds; got '${options.budgetMs}'. Nothing was done.`);
      let storeOptions: OpenStoreOptions;
      try {
        storeOptions = storeOptionsOf({ store: options.store, directory: options.dir ?? process.cwd() });
      } catch (error) {
        return fail(`${(error as Error).message} Nothing was done.`);
      }
      const sqlite = "url" in storeOptions ? {} : { busyTimeoutMs: HOOK_BUSY_TIMEOUT_MS };
      const outcome = await runSessionStartHook({
        stdin: await readStdin(STDIN_DEADLINE_MS),
        client,
        openStore: () => openStore({ ...storeOptions, ...sqlite } as OpenStoreOptions),
        budgetMs,
      });
      // Written synchronously: the process may exit right after, with an import unfinished.
      if (outcome.stdout !== undefined) writeSync(1, outcome.stdout);
      if (outcome.continueImport !== undefined) {
        const worker = continueInBackground({ client, transcript: outcome.continueImport, options, onError: fail });
        if (worker !== undefined) outcome.problems.push(worker);
      }
      if (outcome.problems.length > 0) fail(outcome.problems.join("; "));
      if (outcome.pendingImport !== undefined) process.exit(0);
      try {
        await outcome.store?.close();
      } catch (error) {
        fail(`closing the store: ${(error as Error).message}`);
      }
    });
  return hook;
}

/**
 * Stdin up to its end, `MAX_INPUT_BYTES`, or `deadlineMs`, whichever comes first (none from a
 * terminal). A complete JSON object ends the wait too: a CLI that never closes the pipe costs nothing.
 */
async function readStdin(deadlineMs: number): Promise<string> {
  const input = process.stdin;
  if (input.isTTY === true) return "";
  const chunks: Buffer[] = [];
  let size = 0;
  await new Promise<void>((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      input.off("data", onData).off("end", finish).off("error", finish);
      // Whatever else comes is not read: the process must not wait for the pipe to close.
      input.pause();
      input.unref?.();
      resolve();
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_INPUT_BYTES || isJsonObject(Buffer.concat(chunks).toString("utf8"))) finish();
    };
    const timer = setTimeout(finish, deadlineMs);
    input.on("data", onData).once("end", finish).once("error", finish);
  });
  return Buffer.concat(chunks).toString("utf8");
}

function isJsonObject(text: string): boolean {
  if (!text.trimEnd().endsWith("}")) return false;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Has `ctxwin import` finish the transcript in the background; what it could not do, as a problem line. */
function continueInBackground({
  client,
  transcript,
  options,
  onError,
}: {
  client: TranscriptFormat;
  transcript: string;
  options: HookOptions;
  /** A failure reported after the worker was started (the program cannot be run). */
  onError: (problem: string) => void;
}): string | undefined {
  const store =
    options.store === undefined ? ["--dir", path.resolve(options.dir ?? process.cwd())] : ["--store", options.store];
  try {
    startBackgroundImport({
      args: ["import", client, transcript, ...store],
      start: (args) => {
        const worker = spawn(process.execPath, [builtCli(), ...args], {
          detached: true,
          stdio: "ignore",
        });
        worker.on("error", (error) =>
          onError(`the background import of ${transcript} failed to start (${error.message})`),
        );
        worker.unref();
        return worker;
      },
    });
    return undefined;
  } catch (error) {
    return `cannot start the import of the rest of ${transcript} in the background (${(error as Error).message}); the next hook goes on with it`;
  }
}
