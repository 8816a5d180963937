/**
 * `search_text`: a literal, case-insensitive search through the text files under a workspace path.
 * One result line per matching line, `path:LINE: text`, in the walk's fixed order; the text is cut
 * to `maxLineChars` around the match. Binary files, files over `maxSearchFileBytes`, symbolic links
 * and the skipped folders are not searched, nor git-ignored entries (unless `respectGitignore` is
 * false; a named path is searched even when ignored). Past `limit`, the remaining matches are counted.
 */
import fs from "node:fs";
import { gitignoreRules, type IgnoreFileProblem } from "./gitignore-rules.js";
import { ignoredNote, ignoreProblemsNote } from "./ignore-notes.js";
import { MAX_QUERY_CHARS } from "./limits.js";
import { isRefusal, refusal, formatSize, type Refusal } from "./results.js";
import { looksBinary, openRegularFile, readAll } from "./text-file.js";
import { walkTree } from "./walk-tree.js";
import type { WorkspaceToolCall } from "./workspace-root.js";
import { resolveWorkspacePath } from "./workspace-paths.js";

export interface SearchTextInput {
  query: string;
  /** Folder or file to search, root-relative (default "."). */
  path?: string | null | undefined;
  /** Most matching lines to show (default and maximum: `maxSearchMatches`). */
  limit?: number | null | undefined;
}

export interface SearchTextLimits {
  maxSearchMatches: number;
  maxSearchFileBytes: number;
  maxLineChars: number;
}

/** The search stops reading files after this many bytes in one call (matches past it are not counted). */
export const MAX_SEARCH_SCAN_BYTES = 256 * 1024 * 1024;

interface SearchState {
  needle: string;
  limit: number;
  lines: string[];
  more: number;
  filesSearched: number;
  binary: number;
  tooLarge: number;
  unreadable: number;
  scannedBytes: number;
  stoppedEarly: boolean;
  ignored: number;
  firstIgnored: string[];
  ignoreProblems: readonly IgnoreFileProblem[];
}

/**
 * Runs one `search_text` call.
 *
 * @example
 * searchWorkspaceText({ workspace, input: { query: "retryPolicy", path: "src" }, limits, respectGitignore: true })
 * // "src/net/retry.ts:12: export const retryPolicy = {"
 */
export function searchWorkspaceText({
  workspace,
  input,
  limits,
  respectGitignore,
}: WorkspaceToolCall<SearchTextInput> & {
  limits: SearchTextLimits;
  respectGitignore: boolean;
}): string | Refusal {
  const query = input.query;
  if (query.length === 0) return refusal("query is empty; give the text to look for.");
  if (query.length > MAX_QUERY_CHARS)
    return refusal(`query is ${query.length} characters long, over the ${MAX_QUERY_CHARS} limit.`);
  if (/[\r\n]/.test(query))
    return refusal(
      "query contains a line break; search_text matches within one line, so search for one line of the text.",
    );
  const resolved = resolveWorkspacePath({ workspace, input: input.path ?? "." });
  if (isRefusal(resolved)) return resolved;
  const shown = resolved.shown;
  if (resolved.kind === "missing") return refusal(`${shown} does not exist; use list_files to find the right path.`);
  if (resolved.kind === "other") return refusal(`${shown} is not a file or folder (a device, socket or pipe).`);

  const state: SearchState = {
    needle: query.toLowerCase(),
    limit: input.limit ?? limits.maxSearchMatches,
    lines: [],
    more: 0,
    filesSearched: 0,
    binary: 0,
    tooLarge: 0,
    unreadable: 0,
    scannedBytes: 0,
    stoppedEarly: false,
    ignored: 0,
    firstIgnored: [],
    ignoreProblems: [],
  };
  if (resolved.kind === "file") {
    const size = resolved.stats?.size ?? 0;
    if (size > limits.maxSearchFileBytes) {
      return refusal(
        `${shown} is ${formatSize(size)}, over the ${formatSize(limits.maxSearchFileBytes)} search limit; read it in parts with read_file offset and limit.`,
      );
    }
    searchFile({ file: resolved.target, shown, state, limits });
  } else {
    const rules = respectGitignore ? gitignoreRules({ root: workspace.root }) : undefined;
    const summary = walkTree({
      absolute: resolved.target,
      shown,
      recursive: true,
      isIgnored: rules?.isIgnored,
      visit: (entry) => {
        if (entry.kind !== "file") return true;
        searchFile({ file: entry.absolute, shown: entry.shown, state, limits });
        if (state.scannedBytes > MAX_SEARCH_SCAN_BYTES) {
          state.stoppedEarly = true;
          return false;
        }
        return true;
      },
    });
    state.unreadable += summary.unreadableFolders;
    state.stoppedEarly ||= summary.exhausted;
    state.ignored = summary.ignored;
    state.firstIgnored = summary.firstIgnored;
    state.ignoreProblems = rules?.problems ?? [];
  }
  return render({ state, query, shown, limits });
}

function searchFile({
  file,
  shown,
  state,
  limits,
}: {
  file: string;
  shown: string;
  state: SearchState;
  limits: SearchTextLimits;
}): void {
  let bytes: Buffer;
  try {
    const opened = openRegularFile({ file, shown, maxBytes: Number.POSITIVE_INFINITY, tooLargeHint: "" });
    if (isRefusal(opened)) {
      state.unreadable += 1;
      return;
    }
    try {
      if (opened.stats.size > limits.maxSearchFileBytes) {
        state.tooLarge += 1;
        return;
      }
      bytes = readAll({ descriptor: opened.descriptor, size: opened.stats.size });
    } finally {
      fs.closeSync(opened.descriptor);
    }
  } catch {
    state.unreadable += 1;
    return;
  }
  state.scannedBytes += bytes.length;
  if (looksBinary(bytes)) {
    state.binary += 1;
    return;
  }
  state.filesSearched += 1;
  const lines = new TextDecoder("utf-8").decode(bytes).split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    const at = line.toLowerCase().indexOf(state.needle);
    if (at < 0) continue;
    if (state.lines.length < state.limit)
      state.lines.push(
        `${shown}:${index + 1}: ${excerpt({ line, at, length: state.needle.length, maxLineChars: limits.maxLineChars })}`,
      );
    else state.more += 1;
  }
}

/**
 * The part of a line shown for a match: the whole line when it fits, else a window of
 * `maxLineChars` characters (ellipses included) around the match.
 *
 * @example
 * excerpt({ line: "x".repeat(500) + "needle", at: 500, length: 6, maxLineChars: 20 }) // "…xxxxxxxneedlexxxxx" style
 */
export function excerpt({
  line,
  at,
  length,
  maxLineChars,
}: {
  line: string;
  at: number;
  length: number;
  maxLineChars: number;
}): string {
  const text = line.trimEnd();
  if (text.length <= maxLineChars) return text;
  const room = Math.max(1, maxLineChars - 2);
  const matchAt = Math.min(at, text.length);
  let start = Math.max(0, matchAt - Math.floor(Math.max(0, room - length) / 2));
  const end = Math.min(text.length, start + room);
  start = Math.max(0, end - room);
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
}

function render({
  state,
  query,
  shown,
  limits,
}: {
  state: SearchState;
  query: string;
  shown: string;
  limits: SearchTextLimits;
}): string {
  const quoted = JSON.stringify(query.length <= 80 ? query : `${query.slice(0, 77)}...`);
  const skipped: string[] = [];
  if (state.binary > 0) skipped.push(`${state.binary} binary`);
  if (state.tooLarge > 0) skipped.push(`${state.tooLarge} over ${formatSize(limits.maxSearchFileBytes)}`);
  if (state.unreadable > 0) skipped.push(`${state.unreadable} unreadable`);
  const skippedText = skipped.length === 0 ? "" : `; skipped ${skipped.join(", ")}`;
  const stopped = state.stoppedEarly ? "; the search stopped early, narrow it with path" : "";
  const problems = state.ignoreProblems.length > 0 ? [ignoreProblemsNote(state.ignoreProblems)] : [];
  if (state.lines.length === 0) {
    // Only here: "no match" must not read as "not in the workspace" when ignored files were not searched.
    const ignored =
      state.ignored > 0
        ? [ignoredNote({ summary: state, verb: "searched", hint: "pass one as path to search it" })]
        : [];
    return [
      `No matches for ${quoted} in ${shown} (${state.filesSearched} file(s) searched${skippedText}${stopped}).`,
      ...ignored,
      ...problems,
    ].join("\n");
  }
  const lines = [...state.lines];
  if (state.more > 0) {
    const count = state.stoppedEarly ? `at least ${state.more}` : String(state.more);
    const raise = state.limit < limits.maxSearchMatches ? `, raise limit (up to ${limits.maxSearchMatches})` : "";
    lines.push(`[… ${count} more matches not shown; narrow with path or a longer query${raise}]`);
  }
  if (skippedText !== "" || stopped !== "")
    lines.push(`[${state.filesSearched} file(s) searched${skippedText}${stopped}]`);
  return [...lines, ...problems].join("\n");
}
