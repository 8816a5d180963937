/**
 * `view`: a directory is listed two levels deep (hidden entries left out, links not followed out
 * of their scope); a file is shown with line numbers, optionally only `view_range: [start, end]`
 * (1-based, `end` -1 for the end of the file).
 */
import fs from "node:fs";
import path from "node:path";
import { integerFromText } from "../../core/integer-input.js";
import {
  numberLines,
  pathField,
  splitLines,
  type CommandContext,
  type CommandInput,
  type CommandOutcome,
} from "./command-context.js";
import { isInside, realpathIfExists, resolveHostTarget } from "./host-paths.js";
import { isRefusal, refusal, type Refusal } from "./results.js";
import { formatBytes, readTextFile } from "./text-files.js";
import { MEMORY_SCOPES, virtualPathText, type VirtualPath } from "./virtual-path.js";

/** Longest listing; the rest is summarized so that a result stays small. */
export const MAX_LISTED_ENTRIES = 300;

export function viewCommand(context: CommandContext, input: CommandInput): CommandOutcome | Refusal {
  const virtualPath = pathField(input, "path");
  if (isRefusal(virtualPath)) return virtualPath;
  const given = input["view_range"];
  const range = Array.isArray(given) ? given.map(integerFromText) : given;
  if (virtualPath.scope === undefined) {
    if (range !== undefined && range !== null)
      return refusal("invalid_input", "view_range applies to files only; /memories is a directory.");
    return listing(context, virtualPath);
  }
  const target = resolveHostTarget({ layout: context.layout, virtualPath, createScope: false });
  if (isRefusal(target)) return target;
  if (target.kind === "missing") {
    if (virtualPath.segments.length === 0) return listing(context, virtualPath); // a scope with nothing written yet
    return refusal("not_found", `${virtualPath.text} does not exist. View /memories to see what exists.`);
  }
  if (target.kind === "directory") {
    if (range !== undefined && range !== null)
      return refusal("invalid_input", `view_range applies to files only; ${virtualPath.text} is a directory.`);
    return listing(context, virtualPath);
  }
  if (target.kind === "other") return refusal("not_a_file", `${virtualPath.text} is not a regular file.`);
  const file = readTextFile({ file: target.contentPath, shownPath: virtualPath.text, maxBytes: context.maxFileBytes });
  if (isRefusal(file)) return file;
  const lines = splitLines(file.text);
  const outcome = (text: string): CommandOutcome => ({ text, changedPaths: [], accessed: [virtualPath] });
  if (range === undefined || range === null) {
    if (lines.length === 0) return outcome(`File ${virtualPath.text} is empty.`);
    return outcome(
      `File ${virtualPath.text} — ${lines.length} line(s), ${formatBytes(file.bytes)}:\n${numberLines(lines)}`,
    );
  }
  const checked = checkRange(range, lines.length, virtualPath.text);
  if (isRefusal(checked)) return checked;
  const [start, end] = checked;
  return outcome(
    `File ${virtualPath.text} — lines ${start} to ${end} of ${lines.length}:\n${numberLines(lines, start, end)}`,
  );
}

function checkRange(range: unknown, lineCount: number, shownPath: string): [number, number] | Refusal {
  if (!Array.isArray(range) || range.length !== 2 || !range.every((value) => Number.isSafeInteger(value))) {
    return refusal(
      "invalid_input",
      "view_range must be two integers [start, end]: 1-based lines, end -1 for the end of the file.",
    );
  }
  const [start, end] = range as [number, number];
  if (lineCount === 0) return refusal("invalid_input", `${shownPath} is empty; view it without view_range.`);
  if (start < 1 || start > lineCount)
    return refusal(
      "invalid_input",
      `view_range start must be from 1 to ${lineCount} (the file has ${lineCount} line(s)); got ${start}.`,
    );
  if (end !== -1 && end < start)
    return refusal("invalid_input", `view_range end must be -1 or at least the start (${start}); got ${end}.`);
  return [start, end === -1 ? lineCount : Math.min(end, lineCount)];
}

function listing(context: CommandContext, virtualPath: VirtualPath): CommandOutcome {
  const lines: string[] = [];
  const budget = { remaining: MAX_LISTED_ENTRIES, omitted: 0 };
  if (virtualPath.scope === undefined) {
    for (const scope of MEMORY_SCOPES) {
      add(lines, budget, `${virtualPathText(scope)}/`);
      const directory = realpathIfExists(context.layout.scopeDirectories[scope]);
      if (directory !== undefined)
        listDirectory({
          lines,
          budget,
          virtualText: virtualPathText(scope),
          hostDirectory: directory,
          scopeDirectory: directory,
          depth: 1,
        });
    }
  } else {
    const scopeDirectory = realpathIfExists(context.layout.scopeDirectories[virtualPath.scope]);
    const target = resolveHostTarget({ layout: context.layout, virtualPath, createScope: false });
    if (scopeDirectory !== undefined && !isRefusal(target) && target.kind === "directory") {
      listDirectory({
        lines,
        budget,
        virtualText: virtualPath.text,
        hostDirectory: target.contentPath,
        scopeDirectory,
        depth: 2,
      });
    }
  }
  if (budget.omitted > 0)
    lines.push(`… and ${budget.omitted} more entries not shown; view a subdirectory to see them.`);
  const body = lines.length === 0 ? "(empty)" : lines.join("\n");
  return {
    text: `Directory ${virtualPath.text} — up to 2 levels deep, hidden entries not shown:\n${body}`,
    changedPaths: [],
    accessed: [],
  };
}

function listDirectory({
  lines,
  budget,
  virtualText,
  hostDirectory,
  scopeDirectory,
  depth,
}: {
  lines: string[];
  budget: { remaining: number; omitted: number };
  virtualText: string;
  hostDirectory: string;
  scopeDirectory: string;
  depth: number;
}): void {
  const entries = fs
    .readdirSync(hostDirectory, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith("."))
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  for (const entry of entries) {
    const shown = `${virtualText}/${entry.name}`;
    const host = path.join(hostDirectory, entry.name);
    if (entry.isSymbolicLink()) {
      const real = realpathIfExists(host);
      if (real === undefined || !isInside(real, scopeDirectory)) {
        add(lines, budget, `${shown}  (symbolic link out of its scope or broken; not followed)`);
        continue;
      }
      const stats = fs.statSync(real);
      add(
        lines,
        budget,
        stats.isDirectory() ? `${shown}/  (symbolic link)` : `${shown}  (${formatBytes(stats.size)}, symbolic link)`,
      );
      continue;
    }
    if (entry.isDirectory()) {
      add(lines, budget, `${shown}/`);
      if (depth > 1)
        listDirectory({ lines, budget, virtualText: shown, hostDirectory: host, scopeDirectory, depth: depth - 1 });
      continue;
    }
    const size = entry.isFile() ? formatBytes(fs.lstatSync(host).size) : "not a regular file";
    add(lines, budget, `${shown}  (${size})`);
  }
}

function add(lines: string[], budget: { remaining: number; omitted: number }, line: string): void {
  if (budget.remaining > 0) {
    lines.push(line);
    budget.remaining -= 1;
  } else budget.omitted += 1;
}
