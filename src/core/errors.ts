/**
 * Typed failures. Every ctxwin error carries a stable `name`, an optional `cause`, and a
 * marker symbol so `isInstance` works across duplicate copies of the package (the AI SDK's
 * `AISDKError` pattern). Expected outcomes (a budget block, bad tool input) are values, not errors.
 */
const marker = Symbol.for("ctxwin.error");

export class CtxwinError extends Error {
  private readonly [marker] = true;

  constructor(name: string, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = name;
  }

  /**
   * @example
   * try { await store.append(id, rows) } catch (error) { if (CtxwinError.isInstance(error)) console.error(error.message) }
   */
  static isInstance(error: unknown): error is CtxwinError {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

/**
 * The `isInstance` of a `CtxwinError` subclass: a ctxwin error (from any copy of the package) with
 * that class's `errorName`.
 *
 * @example static override isInstance = defineIsInstance(FooError.errorName) as (error: unknown) => error is FooError;
 */
export function defineIsInstance(name: string): (error: unknown) => boolean {
  return (error: unknown): boolean => CtxwinError.isInstance(error) && error.name === name;
}

/** One problem found while validating a row: where it is and what is wrong. */
export interface RowIssue {
  /** Index of the row in the append call. */
  index: number;
  /** Dotted path inside the row, e.g. `parts.0.text`. */
  path: string;
  message: string;
  /** Set when the row is over the size limit: that limit, in bytes of JSON (`maxRowBytes`). */
  maxRowBytes?: number;
}

/**
 * A row failed the schema; nothing of the append was written.
 *
 * @example
 * if (RowValidationError.isInstance(error)) console.error(error.issues[0]?.path)
 */
export class RowValidationError extends CtxwinError {
  static readonly errorName = "CtxwinRowValidationError";
  readonly issues: RowIssue[];

  constructor(issues: RowIssue[]) {
    const first = issues[0];
    const where =
      first === undefined ? "" : ` (row ${first.index}${first.path ? `, ${first.path}` : ""}: ${first.message})`;
    super(
      RowValidationError.errorName,
      `Rows refused: ${issues.length} problem(s) found, nothing was written${where}.`,
    );
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is RowValidationError {
    return CtxwinError.isInstance(error) && error.name === RowValidationError.errorName;
  }
}

/**
 * An argument is malformed (a negative limit, a window id that is not `w:<n>`, ...).
 *
 * @example
 * if (InvalidArgumentError.isInstance(error)) console.error(error.message)
 */
export class InvalidArgumentError extends CtxwinError {
  static readonly errorName = "CtxwinInvalidArgumentError";

  constructor(message: string) {
    super(InvalidArgumentError.errorName, message);
  }

  static override isInstance(error: unknown): error is InvalidArgumentError {
    return CtxwinError.isInstance(error) && error.name === InvalidArgumentError.errorName;
  }
}
