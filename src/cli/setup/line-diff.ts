/**
 * A unified diff of two texts, for `ctxwin setup --dry-run` (ADR 0100): the `diff` package's hunks
 * (three lines of context, one hunk per group of nearby changes, `\ No newline at end of file`
 * where a side lacks one), under `---`/`+++` lines naming the file as written (`/dev/null` before
 * a file that does not exist yet; not C-quoted, so a Windows path reads as it is).
 */
import { createTwoFilesPatch, OMIT_HEADERS } from "diff";

/**
 * @example unifiedDiff({ path: "config.toml", before: "a\n", after: "a\nb\n" })
 */
export function unifiedDiff({
  path,
  before,
  after,
}: {
  path: string;
  before: string | undefined;
  after: string;
}): string {
  const hunks = createTwoFilesPatch(path, path, before ?? "", after, undefined, undefined, {
    context: 3,
    headerOptions: OMIT_HEADERS,
  });
  return `--- ${before === undefined ? "/dev/null" : path}\n+++ ${path}\n${hunks}`;
}
