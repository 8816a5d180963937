/**
 * The demo agent's notes file: what it writes when the budget warning arrives and reads back from
 * `<hot_memories>` after a rollover. A plain Markdown format a person can read too.
 */

export interface FileNote {
  path: string;
  lines: number;
  summary: string;
}

export interface ExplorerNotes {
  task: string | undefined;
  read: FileNote[];
  /** Files still to read, best first. */
  next: string[];
  /** Folders seen but not yet listed. */
  folders: string[];
  /** Folders already listed. */
  listed: string[];
  /** The request being answered when the notes were written, when it was not the task itself. */
  working?: string | undefined;
}

const NOTES_HEADING = "# Exploration notes";
/** Files listed with their summary; earlier ones by path only. */
const DETAILED_READS = 16;
const EARLIER_READS = "- read earlier: ";
const READ_LINE = /^- read: (.+?) — (\d+) lines — (.*)$/;

/**
 * @example
 * renderNotes({ task: "Explore …", read: [{ path: "README.md", lines: 120, summary: "ctxwin" }], next: ["docs/a.md"], folders: ["src"], listed: ["."] })
 */
export function renderNotes({ task, read, next, folders, listed, working }: ExplorerNotes): string {
  // Short state first: the block that pins the notes cuts long files at the end.
  return [
    NOTES_HEADING,
    `Task: ${task ?? "(unknown)"}`,
    ...(working === undefined ? [] : [`Working on: ${working.replace(/\s+/g, " ")}`]),
    `Next: ${next.join(", ")}`,
    `Folders to list: ${folders.join(", ")}`,
    `Folders listed: ${listed.join(", ")}`,
    `Files read so far, in order (${read.length}):`,
    // Older files by path only, so that the notes stay inside their pinned allowance.
    ...(read.length > DETAILED_READS
      ? [
          `- read earlier: ${read
            .slice(0, read.length - DETAILED_READS)
            .map((note) => note.path)
            .join(", ")}`,
        ]
      : []),
    ...read.slice(-DETAILED_READS).map((note) => `- read: ${note.path} — ${note.lines} lines — ${note.summary}`),
    "",
  ].join("\n");
}

/**
 * The notes as the `<hot_memories>` block shows them inside the system prompt, or empty notes when
 * there are none.
 */
export function parseNotes(system: string): ExplorerNotes {
  const start = system.indexOf(NOTES_HEADING);
  if (start < 0) return { task: undefined, read: [], next: [], folders: [], listed: [] };
  const end = system.indexOf("</memory>", start);
  const lines = system.slice(start, end < 0 ? undefined : end).split("\n");
  const notes: ExplorerNotes = { task: undefined, read: [], next: [], folders: [], listed: [] };
  const list = (line: string, prefix: string) =>
    line
      .slice(prefix.length)
      .split(", ")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
  for (const line of lines) {
    if (line.startsWith("Task: ")) notes.task = line.slice("Task: ".length);
    else if (line.startsWith("Working on: ")) notes.working = line.slice("Working on: ".length);
    else if (line.startsWith("Next: ")) notes.next = list(line, "Next: ");
    else if (line.startsWith("Folders to list: ")) notes.folders = list(line, "Folders to list: ");
    else if (line.startsWith("Folders listed: ")) notes.listed = list(line, "Folders listed: ");
    else if (line.startsWith(EARLIER_READS))
      notes.read.push(...list(line, EARLIER_READS).map((entry) => ({ path: entry, lines: 0, summary: "" })));
    else {
      const match = READ_LINE.exec(line);
      if (match !== null) notes.read.push({ path: match[1]!, lines: Number(match[2]), summary: match[3]! });
    }
  }
  return notes;
}

/** `read_file`'s header: `File: <path> · lines A–B of N`, at a line start or after a rendered tool call's `→ `. */
export const FILE_HEADER = /(?:^|→ )File: (.+?) · lines (\d+)[–-](\d+) of (\d+)/m;

/** One line saying what a file is about: its first heading, doc comment or meaningful line. */
export function summarizeFile(content: string): string {
  const lines = content.split("\n").map((line) => line.trim());
  const heading = lines.find((line) => /^#{1,3} \S/.test(line));
  const meaningful = lines.find(
    (line) => /[A-Za-z]{3,}/.test(line) && !/^(import|export \{|"use |\/\/ ?eslint|#!)/.test(line),
  );
  const chosen = (heading ?? meaningful ?? "(no text)")
    .replace(/^(#+|\/\*\*?|\*|\/\/)\s*/, "")
    .replace(/\s*\*\/\s*$/, "")
    .replace(/\s+/g, " ");
  return chosen.length > 60 ? `${chosen.slice(0, 59)}…` : chosen;
}
