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
