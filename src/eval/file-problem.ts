/**
 * Why the eval could not read or write a file, for its one-line messages: `missing` when the file
 * (or its folder) does not exist, else the first line of what the system said.
 *
 * @example `cannot read the results file ${file}: ${fileProblem(error, "no such file")}.`
 */
export function fileProblem(error: unknown, missing: string): string {
  if ((error as NodeJS.ErrnoException).code === "ENOENT") return missing;
  return error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
}
