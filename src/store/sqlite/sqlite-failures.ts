/**
 * What a failure raised by SQLite means for the store: a write the file or its folder does not
 * allow (StoreReadOnlyError), or a damaged file (StoreCorruptError). Everything else keeps its
 * own meaning.
 */
import { CtxwinError } from "../../core/errors.js";
import { StoreCorruptError, StoreReadOnlyError } from "../errors.js";
import type { LineageBackend } from "../lineage/lineage-backend.js";

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** SQLITE_READONLY and its extended codes (e.g. SQLITE_READONLY_DIRECTORY: no `-shm` can be created). */
export function isReadOnlyFailure(error: unknown): boolean {
  return codeOf(error)?.startsWith("SQLITE_READONLY") === true;
}

/**
 * A damaged file: SQLITE_CORRUPT (and its extended codes), SQLITE_NOTADB, or FTS5 failing to load
 * a search index whose configuration pages are damaged ("vtable constructor failed").
 */
export function isCorruptionFailure(error: unknown): boolean {
  const code = codeOf(error);
  if (code === undefined) return false;
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") return true;
  return code.startsWith("SQLITE_") && /vtable constructor failed/.test((error as Error).message);
}

/**
 * The typed store error for a SQLite failure, or the failure itself when it has no store meaning.
 *
 * @example
 * try { statement.run() } catch (error) { throw storeFailure(file, error) }
 */
export function storeFailure(file: string, error: unknown): unknown {
  if (CtxwinError.isInstance(error)) return error;
  if (isReadOnlyFailure(error)) return new StoreReadOnlyError(file, "not-writable", { cause: error });
  if (isCorruptionFailure(error)) return new StoreCorruptError(file, (error as Error).message, { cause: error });
  return error;
}

/** Every asynchronous call of `store` with SQLite failures turned into the store's typed errors. */
export function withTypedFailures(store: LineageBackend, translate: (error: unknown) => unknown): LineageBackend {
  const wrapped: Record<string, unknown> = { ...store };
  for (const [name, method] of Object.entries(store)) {
    if (typeof method !== "function" || name === "diagnostics") continue;
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (method as (...parameters: unknown[]) => Promise<unknown>)(...args);
      } catch (error) {
        throw translate(error);
      }
    };
  }
  return wrapped as unknown as LineageBackend;
}
