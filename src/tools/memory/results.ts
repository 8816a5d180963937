/**
 * What a memory command returns. Every outcome the model can cause, refusals included, is a
 * value with a stable `code` and a message that says what to do instead; the tool never throws.
 */

/**
 * The commands of Anthropic's memory tool, all supported.
 *
 * @example
 * MEMORY_COMMANDS.includes("view") // true
 */
export const MEMORY_COMMANDS = ["view", "create", "str_replace", "insert", "delete", "rename"] as const;
export type MemoryCommand = (typeof MEMORY_COMMANDS)[number];

export type MemoryErrorCode =
  | "invalid_input"
  | "invalid_path"
  | "outside_memory"
  | "not_found"
  | "already_exists"
  | "is_directory"
  | "not_a_directory"
  | "not_a_file"
  | "binary_file"
  | "file_too_large"
  | "too_many_files"
  | "no_match"
  | "ambiguous_match"
  | "read_only"
  | "busy"
  | "changed_concurrently"
  | "io_error";

export interface MemoryCommandSuccess {
  status: "ok";
  command: MemoryCommand;
  /** Text for the model. */
  text: string;
  /** Virtual paths whose content changed (empty for `view`). */
  changedPaths: string[];
}

export interface MemoryCommandFailure {
  status: "error";
  /** `undefined` when the command itself was not recognized. */
  command: MemoryCommand | undefined;
  code: MemoryErrorCode;
  message: string;
}

export type MemoryCommandResult = MemoryCommandSuccess | MemoryCommandFailure;

/** A refusal found while preparing a command, before it is turned into a result. */
export interface Refusal {
  code: MemoryErrorCode;
  message: string;
}

export function refusal(code: MemoryErrorCode, message: string): Refusal {
  return { code, message };
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === "object" && value !== null && "code" in value && "message" in value && !("status" in value);
}

/**
 * The text sent to the model: the success text, or `Error (<code>): <message>`.
 *
 * @example
 * formatMemoryResult({ status: "error", command: "view", code: "not_found", message: "…" }) // "Error (not_found): …"
 */
export function formatMemoryResult(result: MemoryCommandResult): string {
  return result.status === "ok" ? result.text : `Error (${result.code}): ${result.message}`;
}
