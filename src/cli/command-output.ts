import type { Command } from "commander";

/** Where a command writes: the process streams by default, collected text in tests. */
export interface CommandOutput {
  stdout: (chunk: string) => void;
  stderr: (chunk: string) => void;
}

/**
 * The process's own stdout and stderr.
 *
 * @example registerImportCommand({ program, output: processOutput });
 */
export const processOutput: CommandOutput = {
  stdout: (chunk) => process.stdout.write(chunk),
  stderr: (chunk) => process.stderr.write(chunk),
};

/** What a command's `register…Command` takes: the program to add the command to, and where it writes. */
export interface CommandRegistration<Output extends CommandOutput = CommandOutput> {
  program: Command;
  /** Default: `processOutput`. */
  output?: Output;
}

/**
 * A command's failure as one stderr line: `ctxwin <command>: <message>` for an expected failure,
 * `ctxwin <command>: error: <message>` for any other; line breaks inside the message become spaces.
 *
 * @example output.stderr(failureLine({ command: "import", error, expected: ImportCommandError.isInstance(error) }));
 */
export function failureLine({
  command,
  error,
  expected,
}: {
  command: string;
  error: unknown;
  expected: boolean;
}): string {
  const message = error instanceof Error ? error.message : String(error);
  return `ctxwin ${command}: ${expected ? message : `error: ${message}`}\n`.replace(/\n(?!$)/g, " ");
}
