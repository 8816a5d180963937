/**
 * The workspace tools for the AI SDK: `read_file`, `list_files` and `search_text` over one folder,
 * plus `write_file` and `edit_file` when writing is allowed. Every answer is plain text; every
 * refusal (bad input, a path outside the root, a binary file, ...) is text starting `Error: `.
 * The tools never throw. Rules and caps: docs/workspace-tools.md.
 */
import { tool, type Tool, type ToolSet } from "ai";
import type { z } from "zod";
import { checkToolInput, permissiveTwin, type RawToolInput } from "./input-check.js";
import { workspaceFieldExpectations, workspaceInputSchemas } from "./input-schemas.js";
import { resolveLimits, type WorkspaceToolLimits } from "./limits.js";
import { listWorkspaceFiles } from "./list-files.js";
import { editWorkspaceFile } from "./edit-file.js";
import { readWorkspaceFile } from "./read-file.js";
import { failureText, formatRefusal, isRefusal, type Refusal } from "./results.js";
import { searchWorkspaceText } from "./search-text.js";
import { openWorkspace } from "./workspace-root.js";
import { writeWorkspaceFile } from "./write-file.js";

export type { WorkspaceToolLimits } from "./limits.js";

/** The tools every workspace tool set has. */
export const WORKSPACE_READ_TOOL_NAMES = ["read_file", "list_files", "search_text"] as const;
/** The tools added by `allowWrite: true`. */
export const WORKSPACE_WRITE_TOOL_NAMES = ["write_file", "edit_file"] as const;

export interface WorkspaceToolsOptions {
  /** The folder the tools see; resolved once (a symbolic link is followed here). Must exist. */
  root: string;
  /** Adds `write_file` and `edit_file` (default false). */
  allowWrite?: boolean;
  /**
   * `list_files` and `search_text` leave out what git ignores: the `.gitignore` files from the root
   * down and the root's `.git/info/exclude` (default true). Nothing above the root is read.
   */
  respectGitignore?: boolean;
  limits?: WorkspaceToolLimits;
}

const READ_FILE_DESCRIPTION =
  "Read a text file of the workspace. " +
  "Returns 'File: <path> · lines A–B of N' and then the raw lines. " +
  "Long files come in parts: " +
  "a truncated result ends with '[… truncated: continue with offset=K]'; call again with that offset. " +
  "Use offset and limit to read a known range.";

/** The descriptions of list_files and search_text, which say what the walk skips. */
function walkDescriptions({ respectGitignore }: { respectGitignore: boolean }): {
  list_files: string;
  search_text: string;
} {
  const skipped = respectGitignore
    ? "Skips files and folders ignored by git (.gitignore files, .git/info/exclude; a path you name is used even if ignored), .git, node_modules and .ctxwin."
    : "Skips .git, node_modules and .ctxwin.";
  return {
    list_files:
      "List the files under a workspace folder, one per line with its size, sorted by name " +
      `(each folder's contents right after it). ${skipped} ` +
      "Use path to list one folder and recursive: false for a single level.",
    search_text:
      "Search the text files of the workspace for a literal, case-insensitive string. " +
      "Returns lines 'path:LINE: text'. " +
      `Skips binary and very large files. ${skipped} Narrow with path (a folder or file).`,
  };
}

const WRITE_DESCRIPTIONS = {
  write_file:
    "Create or replace a text file of the workspace with the given content " +
    "(missing folders are created; the write is atomic). " +
    "Prefer edit_file for changing part of an existing file.",
  edit_file:
    "Change part of a text file: old_text must occur exactly once in the file " +
    "(copy it exactly from read_file, with enough surrounding lines to be unique); " +
    "it is replaced by new_text.",
} as const;

/**
 * Creates the workspace tools over `root`. Throws `WorkspaceRootError` when the root is missing
 * and `InvalidArgumentError` for a bad limit; the tools themselves never throw.
 *
 * @example
 * const result = streamText({
 *   model,
 *   tools: { ...workspaceTools({ root: process.cwd() }), memory: memoryTool({ root: ".ctxwin/memory", sessionId }) },
 *   prompt: "Where is the retry policy configured?",
 * });
 */
export function workspaceTools({
  root,
  allowWrite = false,
  respectGitignore = true,
  limits,
}: WorkspaceToolsOptions): ToolSet {
  const workspace = openWorkspace({ root });
  const resolved = resolveLimits(limits);
  const schemas = workspaceInputSchemas(resolved);
  const expectations = workspaceFieldExpectations(resolved);
  const descriptions = walkDescriptions({ respectGitignore });
  const tools: ToolSet = {
    read_file: workspaceTool({
      description: READ_FILE_DESCRIPTION,
      schema: schemas.read_file,
      expectations,
      run: (input) => readWorkspaceFile({ workspace, input, maxReadChars: resolved.maxReadChars }),
    }),
    list_files: workspaceTool({
      description: descriptions.list_files,
      schema: schemas.list_files,
      expectations,
      run: (input) =>
        listWorkspaceFiles({ workspace, input, maxListEntries: resolved.maxListEntries, respectGitignore }),
    }),
    search_text: workspaceTool({
      description: descriptions.search_text,
      schema: schemas.search_text,
      expectations: { ...expectations, limit: expectations["search_limit"] as string },
      run: (input) => searchWorkspaceText({ workspace, input, limits: resolved, respectGitignore }),
    }),
  };
  if (!allowWrite) return tools;
  tools["write_file"] = workspaceTool({
    description: WRITE_DESCRIPTIONS.write_file,
    schema: schemas.write_file,
    expectations,
    run: (input) => writeWorkspaceFile({ workspace, input }),
  });
  tools["edit_file"] = workspaceTool({
    description: WRITE_DESCRIPTIONS.edit_file,
    schema: schemas.edit_file,
    expectations,
    run: (input) => editWorkspaceFile({ workspace, input }),
  });
  return tools;
}

function workspaceTool<Schema extends z.ZodObject>({
  description,
  schema,
  expectations,
  run,
}: {
  description: string;
  schema: Schema;
  expectations: Record<string, string>;
  run: (input: z.infer<Schema>) => string | Refusal;
}): Tool<RawToolInput, string> {
  return tool({
    description,
    inputSchema: permissiveTwin(schema),
    execute: async (raw: RawToolInput): Promise<string> => {
      const checked = checkToolInput({ schema, raw, expectations });
      if (!checked.ok) return `Error: ${checked.message}`;
      try {
        const outcome = run(checked.input);
        return isRefusal(outcome) ? formatRefusal(outcome) : outcome;
      } catch (error) {
        const path = (checked.input as { path?: unknown }).path;
        return failureText(error, typeof path === "string" ? path : undefined);
      }
    },
  });
}
