/**
 * Merges the lines one session has in several files into one transcript order, each line once
 * (ADR 0049). Each file's order is kept: a line comes after every line before it in any file that
 * holds both. Where no file orders two lines (two files that branch after a common start), the
 * earlier time goes first, then the smaller key, so the result never depends on which file was
 * read first. Files that contradict each other (a cycle) are resolved by time the same way.
 */
import type { SourceLine } from "./source-format.js";

/**
 * @example mergeLines([[a, b, c], [a, b, d]]) // [a, b, c, d] when c is older than d
 */
export function mergeLines(sequences: readonly (readonly SourceLine[])[]): SourceLine[] {
  const unique = sequences.map(firstOccurrences);
  if (unique.length === 1) return unique[0]!;
  const nodes = new Map<string, { line: SourceLine; next: Set<string>; before: number }>();
  for (const sequence of unique) for (const line of sequence) if (!nodes.has(line.key)) nodes.set(line.key, { line, next: new Set(), before: 0 });
  for (const sequence of unique) {
    for (let index = 1; index < sequence.length; index += 1) {
      const from = nodes.get(sequence[index - 1]!.key)!;
      const to = sequence[index]!.key;
      if (from.next.has(to)) continue;
      from.next.add(to);
      nodes.get(to)!.before += 1;
    }
  }
  const ready = new LineHeap();
  for (const node of nodes.values()) if (node.before === 0) ready.push(node.line);
  const merged: SourceLine[] = [];
  const placed = new Set<string>();
  while (merged.length < nodes.size) {
    // Only a cycle leaves nothing ready: the earliest unplaced line goes next.
    const line = ready.pop() ?? earliest([...nodes.values()].filter((node) => !placed.has(node.line.key)).map((node) => node.line));
    if (placed.has(line.key)) continue;
    placed.add(line.key);
    merged.push(line);
    for (const key of nodes.get(line.key)!.next) {
      const node = nodes.get(key)!;
      node.before -= 1;
      if (node.before === 0 && !placed.has(key)) ready.push(node.line);
    }
  }
  return merged;
}

/** A file's lines with repeated keys dropped (the first occurrence stays where it is). */
export function firstOccurrences(lines: readonly SourceLine[]): SourceLine[] {
  const seen = new Set<string>();
  return lines.filter((line) => !seen.has(line.key) && seen.add(line.key) !== undefined);
}

function compare(a: SourceLine, b: SourceLine): number {
  const timeA = a.time ?? Number.POSITIVE_INFINITY;
  const timeB = b.time ?? Number.POSITIVE_INFINITY;
  if (timeA !== timeB) return timeA < timeB ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

function earliest(lines: SourceLine[]): SourceLine {
  return lines.reduce((best, line) => (compare(line, best) < 0 ? line : best));
}

/** A binary min-heap of lines by (time, key). */
class LineHeap {
  private readonly items: SourceLine[] = [];

  push(line: SourceLine): void {
    const items = this.items;
    items.push(line);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (compare(items[index]!, items[parent]!) >= 0) break;
      [items[index], items[parent]] = [items[parent]!, items[index]!];
      index = parent;
    }
  }

  pop(): SourceLine | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      let index = 0;
      for (;;) {
        const left = index * 2 + 1;
        const right = left + 1;
        let smallest = index;
        if (left < items.length && compare(items[left]!, items[smallest]!) < 0) smallest = left;
        if (right < items.length && compare(items[right]!, items[smallest]!) < 0) smallest = right;
        if (smallest === index) break;
        [items[index], items[smallest]] = [items[smallest]!, items[index]!];
        index = smallest;
      }
    }
    return top;
  }
}
