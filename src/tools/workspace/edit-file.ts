/**
 * `edit_file` (only with `allowWrite`): replaces the one occurrence of `old_text` in a text file
 * with `new_text`. Zero or several occurrences are refused (with the line numbers of the matches),
 * and the file is written atomically only if nobody changed it since it was read.
 */
import fs from "node:fs";
import { versionOf, writeFileAtomic } from "./atomic-write.js";
import { MAX_WRITE_FILE_BYTES } from "./limits.js";
import { isRefusal, refusal, type Refusal } from "./results.js";
import { looksBinary, openRegularFile, readAll } from "./text-file.js";
import type { WorkspaceToolCall } from "./workspace-root.js";
import { resolveWorkspacePath } from "./workspace-paths.js";
import { checkWritableText, lineCountOf } from "./write-file.js";

export interface EditFileInput {
  path: string;
  old_text: string;
  new_text: string;
}

/** Most match line numbers listed when `old_text` is ambiguous. */
const MAX_LISTED_MATCHES = 20;

/**
 * Runs one `edit_file` call.
 *
 * @example
 * editWorkspaceFile({ workspace, input: { path: "src/a.ts", old_text: "retries = 3", new_text: "retries = 5" } })
 * // "Edited src/a.ts: old_text was at line 12; replaced it with 1 line. The file now has 40 lines."
 */
export function editWorkspaceFile({ workspace, input }: WorkspaceToolCall<EditFileInput>): string | Refusal {
  const resolved = resolveWorkspacePath({ workspace, input: input.path });
  if (isRefusal(resolved)) return resolved;
  const shown = resolved.shown;
  if (resolved.kind === "missing")
    return refusal(`${shown} does not exist; use write_file to create it, or list_files to find the right path.`);
  if (input.old_text === input.new_text) return refusal("new_text is the same as old_text; nothing would change.");
  const opened = openRegularFile({
    file: resolved.target,
    shown,
    maxBytes: MAX_WRITE_FILE_BYTES,
    tooLargeHint: "edit_file does not change files this large.",
  });
  if (isRefusal(opened)) return opened;
  let bytes: Buffer;
  try {
    bytes = readAll({ descriptor: opened.descriptor, size: opened.stats.size });
  } finally {
    fs.closeSync(opened.descriptor);
  }
  if (looksBinary(bytes) || bytes.includes(0))
    return refusal(`${shown} is a binary file (it contains NUL bytes); edit_file changes text files only.`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return refusal(`${shown} is not valid UTF-8 text; edit_file would damage it, so it is not changed.`);
  }

  const matches = occurrences(text, input.old_text);
  if (matches.length === 0) return refusal(notFoundMessage({ text, oldText: input.old_text, shown }));
  if (matches.length > 1) {
    const lines = matches.slice(0, MAX_LISTED_MATCHES).map((index) => lineAt(text, index));
    const more = matches.length > MAX_LISTED_MATCHES ? `, and ${matches.length - MAX_LISTED_MATCHES} more` : "";
    return refusal(
      `old_text occurs ${matches.length} times in ${shown} (at lines ${lines.join(", ")}${more}); ` +
        "include more surrounding text so that it occurs exactly once.",
    );
  }
  const at = matches[0] as number;
  const updated = text.slice(0, at) + input.new_text + text.slice(at + input.old_text.length);
  const problem = checkWritableText({ text: updated, shown });
  if (problem !== undefined) return problem;
  const failed = writeFileAtomic({ file: resolved.target, content: updated, expected: versionOf(opened.stats), shown });
  if (failed !== undefined) return failed;

  const firstLine = lineAt(text, at);
  const oldLines = Math.max(1, lineCountOf(input.old_text));
  const lastLine = firstLine + oldLines - 1;
  const where = oldLines === 1 ? `line ${firstLine}` : `lines ${firstLine}–${lastLine}`;
  const newLines = lineCountOf(input.new_text);
  const replaced =
    newLines === 0 ? "deleted the text" : `replaced it with ${newLines} line${newLines === 1 ? "" : "s"}`;
  return `Edited ${shown}: old_text was at ${where}; ${replaced}. The file now has ${lineCountOf(updated)} lines.`;
}

/** Start indexes of every occurrence of `needle`, overlapping ones included (they make the edit ambiguous too). */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = text.indexOf(needle); index >= 0; index = text.indexOf(needle, index + 1)) found.push(index);
  return found;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (
    let position = text.indexOf("\n");
    position >= 0 && position < index;
    position = text.indexOf("\n", position + 1)
  )
    line += 1;
  return line;
}

function notFoundMessage({ text, oldText, shown }: { text: string; oldText: string; shown: string }): string {
  const base = `old_text was not found in ${shown}; read the file with read_file and copy the text exactly (whitespace and line breaks matter).`;
  if (
    text.includes("\r\n") &&
    oldText.includes("\n") &&
    !oldText.includes("\r\n") &&
    text.includes(oldText.replace(/\n/g, "\r\n"))
  ) {
    return `${base} The file uses CRLF line endings: write each line break in old_text as \\r\\n.`;
  }
  if (text.toLowerCase().includes(oldText.toLowerCase())) return `${base} It occurs with different letter case.`;
  return base;
}
