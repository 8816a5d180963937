/**
 * The transcript row: an AI SDK `UIMessage` (role, parts) plus ctxwin's envelope (docs/design.md §3).
 * Rows are validated with zod on the way in; stored rows are parsed leniently on the way out so
 * that older and forward-compatible rows still load.
 */
import type { UIDataTypes, UIMessagePart, UITools } from "ai";
import { z } from "zod";
import { InvalidArgumentError, RowValidationError, type RowIssue } from "./errors.js";
import { valueShapeProblem } from "./value-shape.js";

/** Version of the row format written by this build. Older versions load; newer are refused. */
export const ROW_FORMAT_VERSION = 1;

/**
 * Largest row `append` accepts: bytes of its JSON (UTF-8), the `maxRowBytes` option of every
 * store. A 20 MiB reasoning part or a 5 MB tool output fits; search holds the first
 * `MAX_SEARCH_VALUE_CHARS` characters of each value (ADR 0048).
 */
export const MAX_ROW_BYTES = 32 * 1024 * 1024;

/** Deepest nesting of arrays and objects in a row that `append` accepts (the row itself is level 1). */
export const MAX_ROW_NESTING = 512;

export const BOUNDARY_KINDS = ["rollover", "reset", "compaction"] as const;
export type BoundaryKind = (typeof BOUNDARY_KINDS)[number];

/** Internal row types (`meta.type`) that ctxwin itself writes. */
export const INTERNAL_ROW_TYPES = [
  "rollover",
  "lead-in",
  "budget-warning",
  "compaction-summary",
  "rejected-input",
  "continue",
  "notes-flush",
] as const;
export type InternalRowType = (typeof INTERNAL_ROW_TYPES)[number];

export const ROLLOVER_REASONS = ["on-send", "mid-stream", "context-exceeded", "requested"] as const;
export type RolloverReason = (typeof ROLLOVER_REASONS)[number];

export type RowPart = UIMessagePart<UIDataTypes, UITools>;
export type RowRole = "system" | "user" | "assistant";

export interface Boundary {
  kind: BoundaryKind;
}

/** Metadata of a rollover boundary row. */
export interface RolloverMeta {
  type: "rollover";
  rolloverId: string;
  reason: RolloverReason;
  previousWindowId: string;
  flushOpportunity: boolean;
  /** Tokens the previous window held when it rolled over. */
  contextTokens: number;
  /** The model's context limit. */
  maxTokens: number;
}

/** `meta` of any row: a `type` plus fields that depend on it; unknown types are preserved. */
export interface RowMeta {
  type: string;
  [key: string]: unknown;
}

/** What a caller hands to `append`: the store assigns `sessionId` and `seq`. */
export interface RowInput {
  id?: string;
  role: RowRole;
  parts: RowPart[];
  createdAt?: string;
  synthetic?: boolean;
  uiVisible?: boolean;
  boundary?: Boundary;
  meta?: RowMeta;
  tokens?: number;
  metadata?: unknown;
}

/** A persisted row. `seq` is its position in the session; its item id is `String(seq)`. */
export interface Row extends RowInput {
  sessionId: string;
  seq: number;
  id: string;
  createdAt: string;
}

const windowIdPattern = /^w:(0|[1-9][0-9]{0,15})$/;
const tokenCount = z.number().int().nonnegative();

export const RolloverMetaSchema = z.object({
  type: z.literal("rollover"),
  rolloverId: z.string().min(1).max(200),
  reason: z.enum(ROLLOVER_REASONS),
  previousWindowId: z.string().regex(windowIdPattern),
  flushOpportunity: z.boolean(),
  contextTokens: tokenCount,
  maxTokens: tokenCount,
});

const partSchema = z.looseObject({ type: z.string().min(1).max(200) }).superRefine((part, context) => {
  const record = part as Record<string, unknown>;
  const requireString = (key: string) => {
    if (typeof record[key] !== "string") {
      context.addIssue({ code: "custom", path: [key], message: `a '${part.type}' part needs a string '${key}'` });
    }
  };
  if (part.type === "text" || part.type === "reasoning") requireString("text");
  else if (part.type === "file") {
    requireString("mediaType");
    requireString("url");
  } else if (part.type === "dynamic-tool") {
    requireString("toolName");
    requireString("toolCallId");
    requireString("state");
  } else if (part.type.startsWith("tool-")) {
    requireString("toolCallId");
    requireString("state");
  }
});

const metaSchema = z.looseObject({ type: z.string().min(1).max(100) });

/** Schema of `append` input. Strict: unknown top-level fields are refused rather than dropped. */
export const RowInputSchema = z
  .strictObject({
    id: z.string().min(1).max(200).optional(),
    role: z.enum(["system", "user", "assistant"]),
    parts: z.array(partSchema).max(10_000),
    createdAt: z.iso.datetime({ offset: true }).optional(),
    synthetic: z.boolean().optional(),
    uiVisible: z.boolean().optional(),
    boundary: z.strictObject({ kind: z.enum(BOUNDARY_KINDS) }).optional(),
    meta: metaSchema.optional(),
    tokens: tokenCount.optional(),
    metadata: z.unknown().optional(),
  })
  .superRefine(
    (row, context) => {
      const metaType = row.meta?.type;
      if (row.boundary?.kind === "rollover") {
        const parsed = RolloverMetaSchema.safeParse(row.meta);
        if (!parsed.success) {
          for (const issue of parsed.error.issues) {
            context.addIssue({
              code: "custom",
              path: ["meta", ...issue.path.map(String)],
              message: `rollover boundary: ${issue.message}`,
            });
          }
        }
      } else if (metaType === "rollover") {
        context.addIssue({
          code: "custom",
          path: ["boundary"],
          message: "a 'rollover' row must carry boundary { kind: 'rollover' }",
        });
      }
      if (metaType === "lead-in" && typeof row.meta?.["rolloverId"] !== "string") {
        context.addIssue({
          code: "custom",
          path: ["meta", "rolloverId"],
          message: "a lead-in row needs its rolloverId",
        });
      }
    },
    {
      // Run the cross-field checks even when another field already failed, so that every
      // problem of a row is reported at once.
      when: (payload) => typeof payload.value === "object" && payload.value !== null,
    },
  );

/** Stored row body as written by this and earlier builds: lenient, so reads never crash on extras. */
export const StoredRowBodySchema = z.looseObject({
  v: z.number().int().positive().optional(),
  id: z.string(),
  role: z.enum(["system", "user", "assistant"]),
  parts: z.array(z.looseObject({ type: z.string() })),
  createdAt: z.string(),
  synthetic: z.boolean().optional(),
  uiVisible: z.boolean().optional(),
  boundary: z.unknown().optional(),
  meta: metaSchema.optional(),
  tokens: tokenCount.optional(),
  metadata: z.unknown().optional(),
});

const sessionIdSchema = z
  .string()
  .min(1, "sessionId must not be empty")
  .max(200, "sessionId is longer than 200 characters")
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), "sessionId contains control characters");

/**
 * Checks a session id; throws `InvalidArgumentError` when it cannot be used.
 *
 * @example
 * assertSessionId("build-42") // ok
 */
export function assertSessionId(sessionId: unknown): asserts sessionId is string {
  const parsed = sessionIdSchema.safeParse(sessionId);
  if (!parsed.success) {
    throw new InvalidArgumentError(
      `Invalid sessionId: ${parsed.error.issues.map((issue) => issue.message).join("; ")}.`,
    );
  }
}

/**
 * Validates rows for `append`. All problems of all rows are reported at once; nothing is written
 * when any row fails.
 *
 * @example
 * const rows = validateRowInputs([{ role: "user", parts: [{ type: "text", text: "hi" }] }]);
 */
export function validateRowInputs(
  rows: unknown,
  { maxRowBytes = MAX_ROW_BYTES }: { maxRowBytes?: number } = {},
): RowInput[] {
  if (!Array.isArray(rows)) {
    throw new RowValidationError([{ index: -1, path: "", message: "rows must be an array" }]);
  }
  if (rows.length === 0) {
    throw new RowValidationError([{ index: -1, path: "", message: "append needs at least one row" }]);
  }
  const issues: RowIssue[] = [];
  const valid: RowInput[] = [];
  rows.forEach((candidate, index) => {
    const parsed = RowInputSchema.safeParse(candidate);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        issues.push({ index, path: issue.path.map(String).join("."), message: issue.message });
      return;
    }
    const problem = storageProblem(parsed.data, maxRowBytes);
    if (problem !== undefined) {
      issues.push({ index, ...problem });
      return;
    }
    valid.push(parsed.data as RowInput);
  });
  if (issues.length > 0) throw new RowValidationError(issues);
  return valid;
}

/**
 * Why a row that passed the schema cannot be stored: its shape (`valueShapeProblem`: checked
 * first, so nothing below recurses past `MAX_ROW_NESTING` levels), JSON that cannot write it, or
 * its size. Each message names the limit.
 */
function storageProblem(row: unknown, maxRowBytes: number): Omit<RowIssue, "index"> | undefined {
  const limit = `the limit of ${maxRowBytes} bytes (maxRowBytes)`;
  // Every array or object takes at least 2 bytes of JSON ("[]"), so more of them cannot fit.
  const shape = valueShapeProblem(row, { maxDepth: MAX_ROW_NESTING, maxContainers: Math.floor(maxRowBytes / 2) });
  if (shape?.kind === "too-deep")
    return {
      path: shape.path,
      message: `row nests arrays and objects more than ${MAX_ROW_NESTING} levels deep (MAX_ROW_NESTING)`,
    };
  if (shape?.kind === "contains-itself")
    return { path: shape.path, message: "row cannot be stored as JSON: a value contains itself" };
  if (shape?.kind === "too-many")
    return {
      path: "",
      message: `row holds more than ${Math.floor(maxRowBytes / 2)} arrays and objects: its JSON is over ${limit}`,
      maxRowBytes,
    };
  let json: string;
  try {
    json = JSON.stringify(row);
  } catch (error) {
    // A BigInt, a toJSON that throws, or JSON longer than a string can be.
    return {
      path: "",
      message: `row cannot be stored as JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const size = json.length * 3 <= maxRowBytes ? json.length : byteLength(json);
  return size > maxRowBytes
    ? { path: "", message: `row is ${size} bytes of JSON, more than ${limit}`, maxRowBytes }
    : undefined;
}

function byteLength(text: string): number {
  // TextEncoder is a web standard (no node built-in), so core stays pure.
  return new TextEncoder().encode(text).length;
}
