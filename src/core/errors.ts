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
 * The static side of a class made by `errorClass`: a `CtxwinError` named `errorName`, built from a
 * message and an optional cause, with its own `isInstance`.
 */
export interface ErrorClass<Name extends string> {
  new (message: string, options?: { cause?: unknown }): CtxwinError;
  readonly errorName: Name;
  /** True for an error of this class, from any copy of the package (its `name` is `errorName`). */
  isInstance<T extends CtxwinError>(this: abstract new (...args: never[]) => T, error: unknown): error is T;
  /** The same check detached from its class (`errors.filter(FooError.isInstance)`): it narrows to `CtxwinError`. */
  isInstance(this: void, error: unknown): error is CtxwinError;
}

/**
 * The base of a `CtxwinError` subclass: it sets `name` to `errorName`, keeps `errorName` as a
 * static, and gives the subclass an `isInstance` that accepts only errors with that name, from any
 * copy of the package, even when the check is passed on detached (`toSatisfy(FooError.isInstance)`).
 * A subclass with more fields takes them in its own constructor and passes the message on.
 *
 * @example
 * export class FooError extends errorClass("CtxwinFooError") {}
 * if (FooError.isInstance(error)) console.error(error.message)
 */
export function errorClass<Name extends string>(errorName: Name): ErrorClass<Name> {
  return class extends CtxwinError {
    static readonly errorName = errorName;

    constructor(message: string, options: { cause?: unknown } = {}) {
      super(errorName, message, options);
    }

    static override isInstance(error: unknown): error is CtxwinError {
      return CtxwinError.isInstance(error) && error.name === errorName;
    }
  } as ErrorClass<Name>;
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
export class RowValidationError extends errorClass("CtxwinRowValidationError") {
  readonly issues: RowIssue[];

  constructor(issues: RowIssue[]) {
    const first = issues[0];
    const where =
      first === undefined ? "" : ` (row ${first.index}${first.path ? `, ${first.path}` : ""}: ${first.message})`;
    super(`Rows refused: ${issues.length} problem(s) found, nothing was written${where}.`);
    this.issues = issues;
  }
}

/**
 * An argument is malformed (a negative limit, a window id that is not `w:<n>`, ...).
 *
 * @example
 * if (InvalidArgumentError.isInstance(error)) console.error(error.message)
 */
export class InvalidArgumentError extends errorClass("CtxwinInvalidArgumentError") {}
