/**
 * Argument checks shared by the budget functions. Malformed numbers (negative, fractional, NaN,
 * infinite) are caller bugs: they throw `InvalidArgumentError` naming the argument, rather than
 * producing a budget decision from garbage.
 */
import { InvalidArgumentError } from "../errors.js";

/** A token count: a non-negative safe integer (zero is a valid count). */
export function requireTokenCount(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(`${name} must be a non-negative integer token count; got ${String(value)}.`);
  }
  return value;
}

/** A size that must be at least 1 (a context limit, an output reserve, a per-image estimate). */
export function requirePositiveInteger(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new InvalidArgumentError(`${name} must be a positive integer; got ${String(value)}.`);
  }
  return value;
}
