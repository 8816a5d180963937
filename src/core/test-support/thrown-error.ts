/**
 * Catching the ctxwin error a call is expected to throw, to assert on its fields. Test-only:
 * excluded from the build.
 */
import type { CtxwinError } from "../errors.js";

/**
 * Runs `action` and returns the error of `errorClass` it throws (checked with the class's
 * `isInstance`); any other error is thrown on, and a call that throws nothing fails the test.
 *
 * @example
 * expect(thrownBy(RowValidationError, () => validateRowInputs([{}])).issues).toHaveLength(1);
 */
export function thrownBy<T extends CtxwinError>(
  errorClass: (abstract new (...args: never[]) => T) & { isInstance: (error: unknown) => boolean },
  action: () => unknown,
): T {
  try {
    action();
  } catch (error) {
    if (errorClass.isInstance(error)) return error as T;
    throw error;
  }
  throw new Error(`expected a ${errorClass.name}, but the call succeeded`);
}
