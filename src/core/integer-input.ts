/**
 * Integers written as text. Some MCP clients send every tool argument as a string (MCP Inspector
 * 0.15's `--tool-arg limit=5` sends `"5"`), so the tools' input validation reads a canonical
 * decimal string where an integer is expected, and still refuses everything else with the same
 * error as before (docs/adr/0054). The JSON Schema a model or client sees keeps saying `integer`.
 *
 * Canonical means written exactly as the number itself prints (`String(n)`): digits, a leading
 * `-` for a negative number, no leading zeros (`"0"` alone is fine), no sign `+`, no spaces, no
 * fraction or exponent, and a safe integer. `"05"`, `"+5"`, `" 5"`, `"5.0"`, `"1e3"`, `"-0"`
 * and `""` stay strings, and so fail the integer check.
 */
import { z } from "zod";

const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;

/**
 * The integer a canonical decimal string names; any other value is returned unchanged, for the
 * caller's own check to refuse or accept.
 *
 * @example integerFromText("5") // 5
 * @example integerFromText("05") // "05" (unchanged: not canonical)
 */
export function integerFromText(value: unknown): unknown {
  if (typeof value !== "string" || !CANONICAL_INTEGER.test(value)) return value;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : value;
}

/**
 * A number schema that also takes a canonical decimal string for an integer. It renders to the
 * same JSON Schema as `schema` (zod renders a preprocess step as its target), so what a model or
 * an MCP client is shown does not change.
 *
 * @example
 * const limit = integerInput(z.number().int().min(1).max(50)).nullish();
 * limit.parse("5") // 5
 * limit.safeParse("5.5").success // false
 */
export function integerInput<Schema extends z.ZodType>(schema: Schema) {
  return z.preprocess(integerFromText, schema);
}
