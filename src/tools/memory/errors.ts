/**
 * Failures of the memory code that are not answers to the model: a lock held too long, an index
 * written by a newer ctxwin, a bad path given to a library function such as `setMemoryPin`.
 */
import { errorClass } from "../../core/errors.js";

/**
 * Another process held the memory lock for longer than the wait allows.
 *
 * @example
 * if (MemoryLockTimeoutError.isInstance(error)) console.error(error.lockFile)
 */
export class MemoryLockTimeoutError extends errorClass("CtxwinMemoryLockTimeoutError") {
  readonly lockFile: string;

  constructor(lockFile: string, waitedMs: number) {
    super(`Memory is busy: the lock ${lockFile} was not released within ${waitedMs} ms.`);
    this.lockFile = lockFile;
  }
}

/**
 * The hot-memory index was written by a newer ctxwin; it is read as empty and never overwritten.
 *
 * @example
 * if (MemoryIndexFormatError.isInstance(error)) console.error(error.message)
 */
export class MemoryIndexFormatError extends errorClass("CtxwinMemoryIndexFormatError") {
  constructor(file: string, version: unknown) {
    super(
      `The memory index ${file} has format version ${String(version)}, newer than this ctxwin understands; it is left untouched.`,
    );
  }
}

/**
 * A library call named a memory path that cannot be used (refused, missing, or not a file).
 *
 * @example
 * try { await setMemoryPin({ sessionId, path: "/etc/passwd" }) } catch (error) { if (MemoryPathError.isInstance(error)) console.error(error.code) }
 */
export class MemoryPathError extends errorClass("CtxwinMemoryPathError") {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}
