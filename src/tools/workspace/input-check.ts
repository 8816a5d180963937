/**
 * Tool input validated inside `execute` (docs/adr/0010): each tool has one strict zod schema
 * (what the model sees and what `execute` checks) and hands the AI SDK its permissive twin, which
 * renders to the same JSON Schema but lets every value through, so a wrong type comes back as an
 * `Error: ` result the model can act on instead of an SDK validation dump.
 */
import { z } from "zod";

/** What the AI SDK hands to `execute`: any object, to be checked against the strict schema. */
export type RawToolInput = Record<string, unknown>;

/**
 * The permissive twin of a strict object schema: the same JSON Schema, every value accepted,
 * unknown fields dropped, a non-object input read as `{}`.
 *
 * @example
 * tool({ inputSchema: permissiveTwin(ReadFileInputSchema), execute: async (raw) => ... })
 */
export function permissiveTwin(strict: z.ZodObject): z.ZodType<RawToolInput, unknown> {
  const required = new Set<string>();
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(strict.shape as Record<string, z.ZodType>)) {
    const { $schema: _dialect, ...json } = z.toJSONSchema(field, { io: "input", target: "draft-7" }) as Record<
      string,
      unknown
    >;
    const optional = field.safeParse(undefined).success;
    if (!optional) required.add(name);
    shape[name] = (optional ? z.unknown().optional() : z.unknown()).meta(json);
  }
  return z.preprocess((value) => {
    const record =
      typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    // Required fields stay required in the JSON Schema; a missing one must still reach execute.
    const filled = { ...record };
    for (const name of required) filled[name] = record[name] ?? null;
    return filled;
  }, z.object(shape)) as unknown as z.ZodType<RawToolInput, unknown>;
}

export type InputCheck<Input> = { ok: true; input: Input } | { ok: false; message: string };

/**
 * Validates raw input; on failure, one message naming each wrong field, what it must be, and
 * what was given (long values summarized, never echoed).
 *
 * @example
 * checkToolInput({ schema: ReadFileInputSchema, raw: { path: 7 }, expectations: { path: "a string" } })
 * // { ok: false, message: "Invalid input: path must be a string; got 7." }
 */
export function checkToolInput<Schema extends z.ZodObject>({
  schema,
  raw,
  expectations,
  notAnObject = "the input must be an object",
}: {
  schema: Schema;
  raw: unknown;
  expectations: Record<string, string>;
  /** The problem reported when the input is not an object at all. */
  notAnObject?: string;
}): InputCheck<z.infer<Schema>> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, input: parsed.data };
  const record = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
  const problems = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const field = typeof issue.path[0] === "string" ? issue.path[0] : "";
    if (problems.has(field)) continue;
    if (field === "") {
      problems.set(field, notAnObject);
      continue;
    }
    const value = record[field];
    const given = value === undefined || value === null ? "it is missing" : `got ${describeValue(value)}`;
    problems.set(field, `${field} must be ${expectations[field] ?? "valid"}; ${given}`);
  }
  return { ok: false, message: `Invalid input: ${[...problems.values()].join("; ")}.` };
}

/**
 * A short description of a value: small values as JSON, large ones by type and size only.
 *
 * @example
 * describeValue("x".repeat(50)) // "a string of 50 characters"
 */
export function describeValue(value: unknown): string {
  if (typeof value === "string")
    return value.length <= 40 ? JSON.stringify(value) : `a string of ${value.length} characters`;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `an array of ${value.length} element(s)`;
  if (value === null) return "null";
  return `a value of type ${typeof value}`;
}
