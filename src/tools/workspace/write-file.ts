/**
 * `write_file` (only with `allowWrite`): creates or replaces one text file inside the workspace,
 * creating missing folders, atomically (temporary file + rename). The same path rules as the
 * read tools apply; a path through a link is written at the link's (checked) target.
 */
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import { MAX_WRITE_FILE_BYTES } from "./limits.js";
import { formatSize, isRefusal, refusal, type Refusal } from "./results.js";
import type { WorkspaceToolCall } from "./workspace-root.js";
import { isInside, resolveWorkspacePath } from "./workspace-paths.js";

export interface WriteFileInput {
  path: string;
  content: string;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Runs one `write_file` call.
 *
 * @example
 * writeWorkspaceFile({ workspace, input: { path: "notes/todo.md", content: "- ship it\n" } }) // "Created notes/todo.md (1 line, 10 B)."
 */
export function writeWorkspaceFile({ workspace, input }: WorkspaceToolCall<WriteFileInput>): string | Refusal {
  const resolved = resolveWorkspacePath({ workspace, input: input.path });
  if (isRefusal(resolved)) return resolved;
  const shown = resolved.shown;
  if (resolved.kind === "directory")
    return refusal(
      `${shown} is a folder; give the path of a file inside it, e.g. "${shown === "." ? "" : `${shown}/`}notes.md".`,
    );
  if (resolved.kind === "other")
    return refusal(`${shown} is not a regular file (a device, socket or pipe); it is not replaced.`);
  const problem = checkWritableText({ text: input.content, shown });
  if (problem !== undefined) return problem;

  const folder = path.dirname(resolved.target);
  fs.mkdirSync(folder, { recursive: true });
  // The folders just created are plain folders; check once more that nothing swapped in a link meanwhile.
  if (!isInside(fs.realpathSync(folder), workspace.root))
    return refusal(`the folder of ${shown} now resolves outside the workspace; nothing was written.`);
  const failed = writeFileAtomic({ file: resolved.target, content: input.content, shown });
  if (failed !== undefined) return failed;
  const verb = resolved.kind === "missing" ? "Created" : "Replaced";
  return `${verb} ${shown} (${describeText(input.content)}).`;
}

/**
 * Refuses text the write tools do not store: NUL bytes, invalid Unicode, more than the size cap.
 *
 * @example
 * checkWritableText({ text: "a\u0000b", shown: "a.txt" }) // a refusal: text only
 */
export function checkWritableText({ text, shown }: { text: string; shown: string }): Refusal | undefined {
  if (text.includes("\u0000"))
    return refusal(`the new content of ${shown} contains NUL bytes; the workspace tools write text files only.`);
  if (LONE_SURROGATE.test(text))
    return refusal(`the new content of ${shown} contains invalid Unicode (a lone surrogate).`);
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_WRITE_FILE_BYTES)
    return refusal(
      `the new content of ${shown} would be ${formatSize(bytes)}, over the ${formatSize(MAX_WRITE_FILE_BYTES)} limit.`,
    );
  return undefined;
}

/**
 * Line count and size of a text, for write results.
 *
 * @example
 * describeText("a\nb\n") // "2 lines, 4 B"
 */
export function describeText(text: string): string {
  const lines = lineCountOf(text);
  return `${lines} line${lines === 1 ? "" : "s"}, ${formatSize(Buffer.byteLength(text, "utf8"))}`;
}

/** Lines as read_file counts them: a final newline does not start another line. */
export function lineCountOf(text: string): number {
  if (text.length === 0) return 0;
  const breaks = text.split("\n").length - 1;
  return text.endsWith("\n") ? breaks : breaks + 1;
}
