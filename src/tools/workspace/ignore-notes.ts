/**
 * The lines `list_files` and `search_text` add about git's ignore rules: which entries were left
 * out (so that "no files" or "no matches" is not read as "not in the workspace"), and which rules
 * files could not be used (so that what they would hide is shown).
 */
import type { IgnoreFileProblem } from "./gitignore-rules.js";
import type { WalkSummary } from "./walk-tree.js";

/** How many unusable rules files a note names. */
const PROBLEMS_NAMED = 3;

/**
 * @example
 * ignoredNote({ summary, verb: "shown", hint: "pass one as path to list it" })
 * // "[2 git-ignored entries not shown: coverage/, dist/; pass one as path to list it]"
 */
export function ignoredNote({
  summary,
  verb,
  hint,
}: {
  summary: Pick<WalkSummary, "ignored" | "firstIgnored">;
  verb: string;
  hint: string;
}): string {
  const count = summary.ignored === 1 ? "1 git-ignored entry" : `${summary.ignored} git-ignored entries`;
  const more = summary.ignored > summary.firstIgnored.length ? ", …" : "";
  return `[${count} not ${verb}: ${summary.firstIgnored.join(", ")}${more}; ${hint}]`;
}

/**
 * @example
 * ignoreProblemsNote([{ file: "docs/.gitignore", reason: "is a symbolic link (git does not follow it either)" }])
 * // "[ignore rules not used: docs/.gitignore is a symbolic link (git does not follow it either)]"
 */
export function ignoreProblemsNote(problems: readonly IgnoreFileProblem[]): string {
  const named = problems.slice(0, PROBLEMS_NAMED).map(({ file, reason }) => `${file} ${reason}`);
  const more = problems.length > PROBLEMS_NAMED ? `; and ${problems.length - PROBLEMS_NAMED} more` : "";
  return `[ignore rules not used: ${named.join("; ")}${more}]`;
}
