/**
 * A unified diff of two texts, for `ctxwin setup --dry-run`. The common beginning and end are
 * set aside first, so the quadratic part only sees the lines that changed (settings edits are
 * small even in a large file).
 */

const CONTEXT_LINES = 3;

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
  const oldLines = linesOf(before ?? "");
  const newLines = linesOf(after);
  let head = 0;
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head += 1;
  let tail = 0;
  while (
    tail < oldLines.length - head &&
    tail < newLines.length - head &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  )
    tail += 1;
  const middle = diffLines(oldLines.slice(head, oldLines.length - tail), newLines.slice(head, newLines.length - tail));
  const contextBefore = oldLines.slice(Math.max(0, head - CONTEXT_LINES), head);
  const contextAfter = oldLines.slice(oldLines.length - tail, oldLines.length - tail + CONTEXT_LINES);
  const body = [...contextBefore.map((line) => ` ${line}`), ...middle, ...contextAfter.map((line) => ` ${line}`)];
  const oldStart = head - contextBefore.length;
  const oldCount = body.filter((line) => !line.startsWith("+")).length;
  const newCount = body.filter((line) => !line.startsWith("-")).length;
  const header = [
    `--- ${before === undefined ? "/dev/null" : path}`,
    `+++ ${path}`,
    `@@ -${oldCount === 0 ? oldStart : oldStart + 1},${oldCount} +${newCount === 0 ? oldStart : oldStart + 1},${newCount} @@`,
  ];
  return `${[...header, ...body].join("\n")}\n`;
}

function linesOf(text: string): string[] {
  if (text === "") return [];
  return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
}

/** `-`/`+`/` ` lines turning `from` into `to` (longest common subsequence). */
function diffLines(from: readonly string[], to: readonly string[]): string[] {
  const lengths: number[][] = Array.from({ length: from.length + 1 }, () => new Array<number>(to.length + 1).fill(0));
  for (let i = from.length - 1; i >= 0; i -= 1) {
    for (let j = to.length - 1; j >= 0; j -= 1) {
      lengths[i]![j] =
        from[i] === to[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < from.length || j < to.length) {
    if (i < from.length && j < to.length && from[i] === to[j]) {
      out.push(` ${from[i]}`);
      i += 1;
      j += 1;
    } else if (j < to.length && (i >= from.length || lengths[i]![j + 1]! >= lengths[i + 1]![j]!)) {
      out.push(`+${to[j]}`);
      j += 1;
    } else {
      out.push(`-${from[i]}`);
      i += 1;
    }
  }
  return out;
}
