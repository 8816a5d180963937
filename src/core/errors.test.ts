import { describe, expect, expectTypeOf, it } from "vitest";
import { CtxwinError, errorClass } from "./errors.js";

/** A message-only error, and one with a field of its own, as the package's error classes are written. */
class PlainError extends errorClass("CtxwinPlainError") {}

class FieldError extends errorClass("CtxwinFieldError") {
  constructor(
    readonly path: string,
    options: { cause?: unknown } = {},
  ) {
    super(`Cannot read '${path}'.`, options);
  }
}

describe("errorClass", () => {
  it("makes a CtxwinError named errorName that instanceof recognises", () => {
    const plain = new PlainError("plain failure");
    const cause = new Error("disk");
    const field = new FieldError("/tmp/a", { cause });
    expect([plain.name, plain.message, PlainError.errorName]).toEqual([
      "CtxwinPlainError",
      "plain failure",
      "CtxwinPlainError",
    ]);
    expect([field.name, field.message, field.path, field.cause]).toEqual([
      "CtxwinFieldError",
      "Cannot read '/tmp/a'.",
      "/tmp/a",
      cause,
    ]);
    expect([plain instanceof PlainError, plain instanceof CtxwinError, plain instanceof Error]).toEqual([
      true,
      true,
      true,
    ]);
    expect([field instanceof PlainError, plain instanceof FieldError]).toEqual([false, false]);
    expect(new PlainError("no cause")).not.toHaveProperty("cause");
  });

  it("gives each class an isInstance that accepts only its own errors, from any copy of the package", () => {
    const marker = Symbol.for("ctxwin.error");
    const values = [
      new PlainError("a"),
      new FieldError("b"),
      { [marker]: true, name: "CtxwinPlainError" },
      { name: "CtxwinPlainError" },
      new Error("c"),
    ];
    expect(values.map((value) => PlainError.isInstance(value))).toEqual([true, false, true, false, false]);
    expect(values.map((value) => FieldError.isInstance(value))).toEqual([false, true, false, false, false]);
    expect(values.map((value) => CtxwinError.isInstance(value))).toEqual([true, true, true, false, false]);
  });

  it("keeps isInstance right when it is passed on detached from its class", () => {
    const errors: unknown[] = [new PlainError("a"), new FieldError("b"), new FieldError("c")];
    const isField = FieldError.isInstance;
    expect(errors.filter(isField)).toEqual([errors[1], errors[2]]);
    expect(errors.filter(PlainError.isInstance)).toEqual([errors[0]]);
  });

  it("narrows to the subclass, fields included", () => {
    const error: unknown = new FieldError("/tmp/a");
    if (!FieldError.isInstance(error)) throw new Error("expected a FieldError");
    expectTypeOf(error).toEqualTypeOf<FieldError>();
    expect(error.path).toBe("/tmp/a");
    expectTypeOf(PlainError.errorName).toEqualTypeOf<"CtxwinPlainError">();
  });
});
