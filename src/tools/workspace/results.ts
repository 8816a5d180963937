/**
 * What a workspace tool answers. Success is plain text for the model; every refusal is a value
 * (`Refusal`) rendered as one line starting `Error: ` that says what to do instead. Tools never throw.
 */

/** A refusal found while running a tool call, before it is rendered for the model. */
export interface Refusal {
  readonly refused: true;
  readonly message: string;
}

/**
 * @example
 * return refusal("src/x.ts does not exist; use list_files to find the right path.");
 */
export function refusal(message: string): Refusal {
  return { refused: true, message };
}

/**
 * @example
 * const resolved = resolveWorkspacePath({ workspace, input }); if (isRefusal(resolved)) return resolved;
 */
export function isRefusal(value: unknown): value is Refusal {
  return typeof value === "object" && value !== null && (value as Partial<Refusal>).refused === true;
}

/**
 * The text the model receives for a refusal.
 *
 * @example
 * formatRefusal(refusal("src/x.ts does not exist.")) // "Error: src/x.ts does not exist."
 */
export function formatRefusal(value: Refusal): string {
  return `Error: ${value.message}`;
}

/**
 * Turns an unexpected failure (permission denied, disk full, a file that vanished) into an error
 * text; the tool call still returns normally.
 *
 * @example
 * try { ... } catch (error) { return failureText(error, "src/a.ts") }
 */
export function failureText(error: unknown, shownPath: string | undefined): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where =
    shownPath === undefined ? "" : ` (${shownPath.length <= 200 ? shownPath : `${shownPath.slice(0, 197)}...`})`;
  if (code === "EACCES" || code === "EPERM")
    return `Error: permission denied${where}; this file or folder cannot be used.`;
  if (code === "ENOENT" || code === "ENOTDIR")
    return `Error: the file or folder disappeared while it was being used${where}; list the folder again.`;
  if (code === "ELOOP") return `Error: a symbolic link changed while it was being used${where}; refused.`;
  if (code === "ENOSPC" || code === "EDQUOT") return `Error: the disk is full${where}; nothing more can be written.`;
  if (code === "EROFS") return `Error: the file system is read-only${where}.`;
  if (code === "EISDIR") return `Error: a folder was found where a file was expected${where}.`;
  const detail = error instanceof Error ? error.message : String(error);
  return `Error: the operation failed${where}: ${detail.slice(0, 300)}`;
}

/**
 * Sizes as people read them: `532 B`, `1.2 KB`, `3.4 MB` (1 KB = 1024 bytes).
 *
 * @example
 * formatSize(1229) // "1.2 KB"
 */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
}
