/**
 * `ctxwin demo`: the offline demonstration. A scripted agent explores a folder (default: the
 * installed ctxwin package itself) under a small context limit, so that warnings, notes, rollovers
 * and a recovery through `session_history` all happen within a minute, then prints a report.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { InvalidArgumentError, type Command } from "commander";
import { FAILURE_EXIT_CODE, USAGE_EXIT_CODE } from "../command-line.js";
import { failureLine } from "../command-output.js";
import { DEMO_MINIMUM_CONTEXT_LIMIT } from "../../agent/demo/demo-tuning.js";
import { wantsColor } from "../terminal/budget-bar.js";
import { createDemoDisplay } from "./demo-display.js";
import { runDemo } from "./run-demo.js";
import { STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag } from "../store-flag.js";
import { packageRoot } from "../../package-root.js";

interface DemoCommandOptions {
  dir?: string;
  store?: string;
  path?: string;
  contextLimit: number;
  files: number;
  pace?: number;
  json?: boolean;
  subagents?: boolean;
}

export const DEMO_DEFAULTS = { contextLimit: 16_000, files: 32 } as const;

/**
 * @example registerDemoCommand({ program: new Command("ctxwin") });
 */
export function registerDemoCommand({ program }: { program: Command }): Command {
  return program
    .command("demo")
    .description(
      "Run an offline demo: a scripted agent reads files under a small context limit, rolls over, and recovers an early detail from its history",
    )
    .option("--dir <path>", "where the session is stored (.ctxwin/ inside it; default: the current folder)")
    .option(STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag)
    .option("--path <folder>", "folder the agent explores (default: the ctxwin package itself)")
    .option(
      "--context-limit <tokens>",
      "context limit of the scripted model",
      wholeNumber({ min: DEMO_MINIMUM_CONTEXT_LIMIT, max: 2_000_000 }),
      DEMO_DEFAULTS.contextLimit,
    )
    .option(
      "--files <count>",
      "files the agent is asked to read",
      wholeNumber({ min: 1, max: 500 }),
      DEMO_DEFAULTS.files,
    )
    .option(
      "--pace <ms>",
      "pause before each model step so you can follow it (default 60 on a terminal, else 0)",
      wholeNumber({ min: 0, max: 10_000 }),
    )
    .option(
      "--subagents",
      "add a phase where the agent delegates to a sub-agent that rolls over in its own session, then reads that session's history",
    )
    .option("--json", "print only the final report, as JSON")
    .showHelpAfterError(false)
    .action(async (options: DemoCommandOptions) => {
      try {
        const directory = path.resolve(options.dir ?? process.cwd());
        const folder = path.resolve(options.path ?? packageRoot());
        if (!existsSync(folder) || !statSync(folder).isDirectory())
          throw new DemoCommandError(`--path ${folder} is not a folder.`);
        const live = options.json !== true && process.stdout.isTTY === true;
        const display =
          options.json === true
            ? undefined
            : createDemoDisplay({ output: process.stdout, live, color: wantsColor({ stream: process.stdout }) });
        const report = await runDemo({
          directory,
          store: options.store,
          folder,
          contextLimit: options.contextLimit,
          files: options.files,
          paceMilliseconds: options.pace ?? (live ? 60 : 0),
          subagents: options.subagents === true,
          ...(display === undefined ? {} : { onEvent: display.onEvent }),
        });
        if (display === undefined) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        else display.finish(report);
        if (report.status !== "completed") process.exitCode = 1;
      } catch (error) {
        process.stderr.write(failureLine({ command: "demo", error, expected: DemoCommandError.isInstance(error) }));
        process.exitCode = DemoCommandError.isInstance(error) ? USAGE_EXIT_CODE : FAILURE_EXIT_CODE;
      }
    });
}

class DemoCommandError extends Error {
  static isInstance(error: unknown): error is DemoCommandError {
    return error instanceof Error && error.name === "DemoCommandError";
  }

  constructor(message: string) {
    super(message);
    this.name = "DemoCommandError";
  }
}

function wholeNumber({ min, max }: { min: number; max: number }) {
  return (value: string): number => {
    const number = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
    if (!(number >= min && number <= max))
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
    return number;
  };
}
