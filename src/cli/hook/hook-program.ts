/**
 * `ctxwin hook …` on its own: a program holding only the hook command, so a hook starts without
 * loading the other commands' dependencies (main.ts chooses it).
 */
import { Command } from "commander";
import { configureCommandLine, runCommandLine } from "../command-line.js";
import { registerHookCommand } from "./hook-command.js";

/**
 * @example await runHookProgram(["node", "ctxwin", "hook", "session-start"]);
 */
export async function runHookProgram(argv: readonly string[]): Promise<void> {
  const program = new Command().name("ctxwin");
  registerHookCommand({ program });
  configureCommandLine(program);
  await runCommandLine(program, argv);
}
