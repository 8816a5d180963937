/**
 * Merges the lines one session has in its files into one conversation order, each distinct line
 * once (ADR 0049, 0079). A line that names its parent (Claude Code's `parentUuid`) comes after that
 * parent, whatever the file order: the CLI may write a reply's line before the line it answers.
 * A line that names no parent among the lines comes after the line before it in every file that
 * holds it. Where nothing orders two lines (siblings, files that branch) the earlier time goes
 * first, then the smaller key, so the result never depends on which file was read first. Lines
 * that contradict each other (a cycle) are resolved by time the same way.
 *
 * Lines are the same when their keys and their JSON are: a repeat is merged and counted. A line
 * that reuses another line's key with other content is kept apart under `<key>#<hash of the line>`
 * (the earliest such line keeps the bare key) and counted — unless the format's keys name one row
 * whatever else the line holds (a ctxwin export's row ids: two exports of one row may differ in
 * their seqs), where the first line read of a key stands for it.
 */
import { createHash } from "node:crypto";
import type { SourceLine } from "./source-format.js";

/** Why lines were merged or kept apart, with how many: the import report's `linesMerged`. */
export interface MergeCounts {
  /** A line repeated inside one file: kept once. */
  repeatedInFile: number;
  /** The same line in several files (a copy, a resumed transcript): kept once. */
  inSeveralFiles: number;
  /** Lines that reuse another line's key with other content: kept, each under a key of its own. */
  keyReused: number;
}

export interface MergedLines {
  lines: SourceLine[];
  counts: MergeCounts;
}

interface Variant {
  line: SourceLine;
  json?: string;
  /** Order of first sight, to break ties among variants of one key. */
  seen: number;
}

/**
 * @example mergeLines([[a, b, c], [a, b, d]]).lines // [a, b, c, d] when c is older than d
 */
export function mergeLines(
  sequences: readonly (readonly SourceLine[])[],
  { keysNameRows = false }: { keysNameRows?: boolean } = {},
): MergedLines {
  const counts: MergeCounts = { repeatedInFile: 0, inSeveralFiles: 0, keyReused: 0 };
  const variants = new Map<string, Variant[]>();
  let seen = 0;
  // Each file's distinct lines, in its order.
  const files = sequences.map((sequence) => {
    const inFile = new Set<Variant>();
    const ordered: Variant[] = [];
    for (const line of sequence) {
      const known = variants.get(line.key);
      let variant = keysNameRows ? known?.[0] : known?.find((candidate) => sameLine(candidate, line));
      if (variant === undefined) {
        variant = { line, seen: seen++ };
        if (known === undefined) variants.set(line.key, [variant]);
        else {
          known.push(variant);
          counts.keyReused += 1;
        }
      } else if (inFile.has(variant)) {
        counts.repeatedInFile += 1;
        continue;
      } else if (known !== undefined) counts.inSeveralFiles += 1;
      inFile.add(variant);
      ordered.push(variant);
    }
    return ordered;
  });
  const lineOf = new Map<Variant, SourceLine>();
  for (const [key, group] of variants) {
    group.sort((left, right) => compareTimes(left.line, right.line) || left.seen - right.seen);
    group.forEach((variant, index) => {
      lineOf.set(variant, index === 0 ? variant.line : { ...variant.line, key: `${key}#${hashOf(variant)}` });
    });
  }
  const distinct = files.map((file) => file.map((variant) => lineOf.get(variant)!));
  return { lines: conversationOrder(distinct), counts };
}

/** The order of distinct lines: parents first, then each file's order, then time (see above). */
function conversationOrder(files: readonly SourceLine[][]): SourceLine[] {
  const nodes = new Map<string, { line: SourceLine; next: SourceLine[]; before: number }>();
  for (const file of files) {
    for (const line of file) if (!nodes.has(line.key)) nodes.set(line.key, { line, next: [], before: 0 });
  }
  const hasParent = (line: SourceLine) =>
    line.parent !== undefined && line.parent !== line.key && nodes.has(line.parent);
  if (files.length === 1 && !files[0]!.some(hasParent)) return files[0]!;
  const edges = new Set<string>();
  const link = (from: SourceLine, to: SourceLine) => {
    const edge = `${from.key}\n${to.key}`;
    if (edges.has(edge)) return;
    edges.add(edge);
    nodes.get(from.key)!.next.push(to);
    nodes.get(to.key)!.before += 1;
  };
  for (const node of nodes.values()) if (hasParent(node.line)) link(nodes.get(node.line.parent!)!.line, node.line);
  for (const file of files) {
    for (let index = 1; index < file.length; index += 1) {
      if (!hasParent(file[index]!)) link(file[index - 1]!, file[index]!);
    }
  }
  const ready = new LineHeap();
  for (const node of nodes.values()) if (node.before === 0) ready.push(node.line);
  // Only a cycle leaves nothing ready: the earliest line not placed yet goes next.
  const byTime = [...nodes.values()].map((node) => node.line).sort(compare);
  let earliest = 0;
  const merged: SourceLine[] = [];
  const placed = new Set<string>();
  while (merged.length < nodes.size) {
    let line = ready.pop();
    if (line === undefined) {
      while (placed.has(byTime[earliest]!.key)) earliest += 1;
      line = byTime[earliest]!;
    }
    if (placed.has(line.key)) continue;
    placed.add(line.key);
    merged.push(line);
    for (const next of nodes.get(line.key)!.next) {
      const node = nodes.get(next.key)!;
      node.before -= 1;
      if (node.before === 0 && !placed.has(next.key)) ready.push(next);
    }
  }
  return merged;
}

function sameLine(variant: Variant, line: SourceLine): boolean {
  if (variant.line === line || variant.line.value === line.value) return true;
  return jsonOf(variant) === JSON.stringify(line.value);
}

function jsonOf(variant: Variant): string {
  variant.json ??= JSON.stringify(variant.line.value);
  return variant.json;
}

function hashOf(variant: Variant): string {
  return createHash("sha256").update(jsonOf(variant)).digest("hex").slice(0, 12);
}

function compareTimes(a: SourceLine, b: SourceLine): number {
  const timeA = a.time ?? Number.POSITIVE_INFINITY;
  const timeB = b.time ?? Number.POSITIVE_INFINITY;
  return timeA === timeB ? 0 : timeA < timeB ? -1 : 1;
}

function compare(a: SourceLine, b: SourceLine): number {
  return compareTimes(a, b) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
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
