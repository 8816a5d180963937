/**
 * How every `ctxwin` command reports a mistake on its command line: one line on stderr that says
 * what to do, exit code 2 for usage errors (a bad flag, value or command), 1 for runtime failures.
 * Applied to the whole command tree after every command is registered, so new commands get it too.
 */
import { CommanderError, type Command } from "commander";

/** Exit code of a command line ctxwin cannot run as written. */
export const USAGE_EXIT_CODE = 2;
/** Exit code of a command that ran and failed. */
export const FAILURE_EXIT_CODE = 1;

/**
 * Makes `program` and every subcommand print usage errors as one line and throw instead of exiting.
 *
 * @example
 * configureCommandLine(program); await runCommandLine(program, process.argv);
 */
export function configureCommandLine(program: Command): void {
  configure(program, program.name());
}

function configure(command: Command, commandPath: string): void {
  const subcommands = command.commands.map((sub) => sub.name());
  command.exitOverride();
  command.showHelpAfterError(false);
  command.configureOutput({
    outputError: (text, write) => write(`${usageLine(text, commandPath, subcommands)}\n`),
  });
  for (const sub of command.commands) configure(sub, `${commandPath} ${sub.name()}`);
}

/** One line from commander's message, with the way forward. */
export function usageLine(text: string, commandPath: string, subcommands: readonly string[]): string {
  const message =
    text
      .trim()
      .split("\n")[0]
      ?.replace(/^error: /, "") ?? "invalid command line";
  if (subcommands.length > 0 && /^unknown option/.test(message)) {
    return (
      `${commandPath}: ${message}; '${commandPath}' needs a subcommand first ` +
      `(${subcommands.join(", ")}), e.g. '${commandPath} ${subcommands[0] ?? ""} --help'.`
    );
  }
  return `${commandPath}: ${message}; see '${commandPath} --help'.`;
}

/**
 * Parses and runs the command line; sets the exit code (2: usage error, 1: unexpected failure).
 *
 * @example
 * await runCommandLine(program, process.argv);
 */
export async function runCommandLine(program: Command, argv: readonly string[]): Promise<void> {
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end here too (exit code 0); a shown usage error was already printed.
      const helpOrVersion = error.code === "commander.helpDisplayed" || error.code === "commander.version";
      process.exitCode = helpOrVersion ? error.exitCode : USAGE_EXIT_CODE;
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${program.name()}: ${message.split("\n")[0] ?? "failed"}\n`);
    process.exitCode = FAILURE_EXIT_CODE;
  }
}
