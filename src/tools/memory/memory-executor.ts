/**
 * The memory command executor behind the `memory` tool: parses the model's input, runs one of the
 * six commands of Anthropic's memory tool, keeps the hot-memory index up to date, and answers
 * with a `MemoryCommandResult`. It never throws: refusals and I/O failures become error results.
 * The same executor can back `anthropic.tools.memory_20250818({ execute })`.
 */
import { CtxwinError } from "../../core/errors.js";
import type { CommandContext, CommandInput, CommandOutcome } from "./command-context.js";
import { createCommand, insertCommand, strReplaceCommand } from "./edit-commands.js";
import { MemoryLockTimeoutError } from "./errors.js";
import { moveEntries, recordAccesses, removeEntries, updateHotIndex } from "./hot-index.js";
import { indexKeyOf, resolveMemoryLayout, type MemoryLayout, type MemoryLocation } from "./layout.js";
import { MEMORY_COMMANDS, isRefusal, type MemoryCommand, type MemoryCommandResult, type Refusal } from "./results.js";
import { MAX_FILES_PER_SCOPE, MAX_MEMORY_FILE_BYTES } from "./text-files.js";
import { deleteCommand, renameCommand } from "./tree-commands.js";
import { viewCommand } from "./view-command.js";

export interface MemoryExecutorOptions extends MemoryLocation {
  /** Refuse every command except `view`; the index (access counts) is not written either. */
  readOnly?: boolean;
  now?: () => Date;
  /** Where problems that do not fail a command go (e.g. the index could not be updated); default stderr. */
  onWarning?: (message: string) => void;
  maxFileBytes?: number;
  maxFilesPerScope?: number;
  /** How long a command waits for another process's write lock (ms). */
  lockWaitMs?: number;
  /** Test hook: runs inside every atomic write, right before it is committed. */
  beforeCommit?: () => void;
}

export interface MemoryExecutor {
  readonly layout: MemoryLayout;
  readonly readOnly: boolean;
  /** Runs one command; never throws. */
  execute(input: unknown): Promise<MemoryCommandResult>;
}

const HANDLERS: Record<
  MemoryCommand,
  (context: CommandContext, input: CommandInput) => CommandOutcome | Refusal | Promise<CommandOutcome | Refusal>
> = {
  view: viewCommand,
  create: createCommand,
  str_replace: strReplaceCommand,
  insert: insertCommand,
  delete: deleteCommand,
  rename: renameCommand,
};

/**
 * Creates an executor for one session's memory.
 *
 * @example
 * const memory = createMemoryExecutor({ root: ".ctxwin/memory", sessionId: "build-42" });
 * const result = await memory.execute({ command: "view", path: "/memories" });
 * if (result.status === "ok") console.log(result.text);
 */
export function createMemoryExecutor({
  readOnly = false,
  now = () => new Date(),
  onWarning = (message) => process.stderr.write(`ctxwin: ${message}\n`),
  maxFileBytes = MAX_MEMORY_FILE_BYTES,
  maxFilesPerScope = MAX_FILES_PER_SCOPE,
  lockWaitMs = 10_000,
  beforeCommit,
  ...location
}: MemoryExecutorOptions): MemoryExecutor {
  const layout = resolveMemoryLayout(location);
  const context: CommandContext = { layout, maxFileBytes, maxFilesPerScope, lockWaitMs, beforeCommit };

  async function execute(input: unknown): Promise<MemoryCommandResult> {
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      return {
        status: "error",
        command: undefined,
        code: "invalid_input",
        message: `Input must be an object with a command: ${MEMORY_COMMANDS.join(", ")}.`,
      };
    }
    const fields = input as CommandInput;
    const command = fields["command"];
    if (typeof command !== "string" || !(MEMORY_COMMANDS as readonly string[]).includes(command)) {
      return {
        status: "error",
        command: undefined,
        code: "invalid_input",
        message: `Unknown command ${JSON.stringify(command)}; use one of ${MEMORY_COMMANDS.join(", ")}.`,
      };
    }
    const name = command as MemoryCommand;
    if (readOnly && name !== "view") {
      return {
        status: "error",
        command: name,
        code: "read_only",
        message: "Memory is read-only in this session: only view is available, nothing can be written.",
      };
    }
    let outcome: CommandOutcome | Refusal;
    try {
      outcome = await HANDLERS[name](context, fields);
    } catch (error) {
      return { status: "error", command: name, ...failureOf(error) };
    }
    if (isRefusal(outcome)) return { status: "error", command: name, code: outcome.code, message: outcome.message };
    if (!readOnly) await updateIndex(outcome);
    return { status: "ok", command: name, text: outcome.text, changedPaths: outcome.changedPaths };
  }

  async function updateIndex(outcome: CommandOutcome): Promise<void> {
    if (outcome.accessed.length === 0 && outcome.removed === undefined && outcome.moved === undefined) return;
    const at = now().getTime();
    try {
      await updateHotIndex({
        layout,
        maxWaitMs: lockWaitMs,
        change: (files) => {
          if (outcome.removed !== undefined) removeEntries(files, indexKeyOf(layout, outcome.removed));
          if (outcome.moved !== undefined) {
            const destination = indexKeyOf(layout, outcome.moved.to);
            moveEntries(files, indexKeyOf(layout, outcome.moved.from), destination);
          }
          recordAccesses(
            files,
            outcome.accessed.map((path) => indexKeyOf(layout, path)),
            at,
          );
        },
      });
    } catch (error) {
      onWarning(`the memory index was not updated: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  return { layout, readOnly, execute };
}

function failureOf(error: unknown): Pick<Refusal, "code" | "message"> {
  if (MemoryLockTimeoutError.isInstance(error)) return { code: "busy", message: `${error.message} Try again shortly.` };
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  if (CtxwinError.isInstance(error)) return { code: "io_error", message: detail };
  if (code === "EACCES" || code === "EPERM" || code === "EROFS")
    return { code: "io_error", message: `The file system refused the operation (${code}).` };
  if (code === "ENOSPC" || code === "EDQUOT") return { code: "io_error", message: `The disk is full (${code}).` };
  return { code: "io_error", message: `The memory storage failed: ${detail}` };
}
