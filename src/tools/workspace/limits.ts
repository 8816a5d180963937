/**
 * The caps of the workspace tools. The configurable ones (`WorkspaceToolLimits`) bound what one
 * result can hold; the fixed ones bound how much work one call may do on a huge workspace.
 */
import { InvalidArgumentError } from "../../core/errors.js";

/** Caps of one workspace tool result; every field is optional and has a default. */
export interface WorkspaceToolLimits {
  /** `read_file`: most characters of file text in one result (default 12,000). */
  maxReadChars?: number;
  /** `list_files`: most entries in one result (default 200). */
  maxListEntries?: number;
  /** `search_text`: most matching lines in one result, and the largest `limit` (default 50). */
  maxSearchMatches?: number;
  /** `search_text`: files larger than this are skipped (default 1,000,000 bytes). */
  maxSearchFileBytes?: number;
  /** `search_text`: most characters of one matching line shown, around the match (default 240). */
  maxLineChars?: number;
}

/**
 * The defaults of `WorkspaceToolLimits`.
 *
 * @example
 * workspaceTools({ root: ".", limits: { maxReadChars: DEFAULT_WORKSPACE_TOOL_LIMITS.maxReadChars / 2 } })
 */
export const DEFAULT_WORKSPACE_TOOL_LIMITS: Readonly<Required<WorkspaceToolLimits>> = Object.freeze({
  maxReadChars: 12_000,
  maxListEntries: 200,
  maxSearchMatches: 50,
  maxSearchFileBytes: 1_000_000,
  maxLineChars: 240,
});

/** `read_file` refuses larger files (it scans a file from the start to count its lines). */
export const MAX_READ_FILE_BYTES = 50 * 1024 * 1024;
/** `write_file` and `edit_file` refuse content (and `edit_file` files) larger than this. */
export const MAX_WRITE_FILE_BYTES = 10 * 1024 * 1024;
/** Longest accepted path argument, in characters. */
export const MAX_PATH_CHARS = 4096;
/** Longest accepted `search_text` query, in characters. */
export const MAX_QUERY_CHARS = 1000;
/** `list_files` and `search_text` stop walking after this many entries (files and folders). */
export const MAX_WALK_ENTRIES = 100_000;
/** Bytes inspected for a NUL byte to tell binary files from text. */
export const BINARY_SNIFF_BYTES = 8 * 1024;
/** A `.gitignore` (or `.git/info/exclude`) larger than this is not used; the walk says so. */
export const MAX_IGNORE_FILE_BYTES = 256 * 1024;
/**
 * A rules file with more patterns than this is not used (every walked entry is tested against
 * every pattern of every rules file above it, so this bounds the cost of a walk).
 */
export const MAX_IGNORE_FILE_RULES = 1000;
/** Folders that `list_files` and `search_text` never enter. */
export const SKIPPED_FOLDERS: readonly string[] = [".git", "node_modules", ".ctxwin"];
/** Folders no workspace tool reads or writes (the session store and memories have their own tools). */
export const PROTECTED_FOLDERS: readonly string[] = [".git", ".ctxwin"];

/**
 * Fills in defaults and checks that every given cap is a positive integer.
 *
 * @example
 * resolveLimits({ maxReadChars: 4000 }).maxListEntries // 200
 */
export function resolveLimits(limits: WorkspaceToolLimits = {}): Required<WorkspaceToolLimits> {
  const resolved = { ...DEFAULT_WORKSPACE_TOOL_LIMITS };
  for (const key of Object.keys(DEFAULT_WORKSPACE_TOOL_LIMITS) as (keyof WorkspaceToolLimits)[]) {
    const value = limits[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new InvalidArgumentError(`workspaceTools: limits.${key} must be a positive integer; got ${String(value)}.`);
    resolved[key] = value;
  }
  return resolved;
}
