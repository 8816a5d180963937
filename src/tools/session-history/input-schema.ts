/**
 * The input of `session_history`. One strict zod schema is the single source of truth: it is what
 * the model sees (as JSON Schema) and what `execute` validates against. The schema handed to the
 * AI SDK is its permissive twin: the same JSON Schema, but every value passes, because the SDK
 * refuses schema-invalid input before `execute` runs and the model would get a raw validation
 * dump instead of an error result it can act on (docs/adr: tool input validation). Integer fields
 * also take a canonical decimal string such as "5" (some MCP clients send every argument as text,
 * ADR 0054) and still render as `integer`.
 */
import { z } from "zod";
import { integerInput } from "../../core/integer-input.js";
import { MAX_QUERY_CHARS } from "../../core/search-query.js";
import { MAX_TOOL_NAME_CHARS, SEARCH_ORDERS, SEARCH_ROLES } from "../../core/search-filter.js";
import {
  ITEM_CHARS,
  ITEM_LIMIT,
  ITEM_PREVIEW_CHARS,
  MAX_SEARCH_OFFSET,
  READ_LIMIT_CHARS,
  SEARCH_LIMIT,
  SNIPPET_MAX_CHARS,
  WINDOW_LIMIT,
} from "../../core/history-view/limits.js";
import { checkToolInput, type InputCheck as ToolInputCheck } from "../workspace/input-check.js";

export const SESSION_HISTORY_ACTIONS = ["list_windows", "list_items", "search", "read_item", "list_sessions"] as const;
export type SessionHistoryAction = (typeof SESSION_HISTORY_ACTIONS)[number];

const maxListLimit = Math.max(WINDOW_LIMIT.max, ITEM_LIMIT.max, SEARCH_LIMIT.max);
const itemId = z.union([z.string(), z.number().int().nonnegative()]);

/** What each field must be, phrased for the error result the model reads. */
const expectations: Record<string, string> = {
  action: `one of ${SESSION_HISTORY_ACTIONS.map((action) => `'${action}'`).join(", ")}`,
  limit: `an integer from 1 to ${maxListLimit} (search: up to ${SEARCH_LIMIT.max})`,
  before_window: "a window id such as 'w:0' or 'w:120', as list_windows shows them",
  window_id: "a window id such as 'w:0' or 'w:120', as list_windows shows them",
  after_item: "an item id such as '42', as list_items and search show them",
  query: "a string",
  mode: "'literal', 'ranked' or 'hybrid'",
  before_item: "an item id such as '42', as list_items and search show them",
  offset: `an integer from 0 to ${MAX_SEARCH_OFFSET}`,
  item_id: "an item id such as '42', as list_items and search show them",
  offset_chars: "a non-negative integer",
  limit_chars: `an integer from 1 to ${READ_LIMIT_CHARS.max}`,
  role: "'user', 'assistant' or 'system'",
  tool_name: `a tool name of 1 to ${MAX_TOOL_NAME_CHARS} characters, such as 'read_file'`,
  order: "'relevance' or 'newest'",
  max_item_chars: `an integer from ${ITEM_CHARS.min} to ${ITEM_CHARS.max}`,
  session_id: "a sub-agent session id, as list_sessions and search hits show them",
};

/** The fields only some actions use; given to another action, they are refused rather than ignored. */
export const ACTION_FIELDS: Readonly<Record<string, readonly SessionHistoryAction[]>> = {
  role: ["search"],
  tool_name: ["search"],
  order: ["search"],
  max_item_chars: ["search", "list_items"],
  session_id: ["list_windows", "list_items", "search", "read_item"],
};

/**
 * The input of `session_history`, as the model sees it. Every optional field is nullish:
 * strict-mode providers send `null` for fields they leave out.
 *
 * @example SessionHistoryInputSchema.parse({ action: "search", query: "deploy key", mode: null })
 */
export const SessionHistoryInputSchema = z.object({
  action: z
    .enum(SESSION_HISTORY_ACTIONS)
    .describe(
      "list_windows: the context windows of this session, newest first. " +
        "list_items: the items of one window (or of the whole readable history), oldest first. " +
        "search: find items by text (also in your sub-agents' sessions). " +
        "read_item: read one item's text page by page. list_sessions: your sub-agents' sessions.",
    ),
  limit: integerInput(z.number().int().min(1).max(maxListLimit))
    .nullish()
    .describe(
      "list_windows and list_items: at most this many entries " +
        `(default ${WINDOW_LIMIT.default}, max ${maxListLimit}). ` +
        `search: at most this many hits (default ${SEARCH_LIMIT.default}, max ${SEARCH_LIMIT.max}).`,
    ),
  before_window: z
    .string()
    .nullish()
    .describe("list_windows: only windows older than this window id (the `next` of the previous page)."),
  window_id: z
    .string()
    .nullish()
    .describe("list_items: the window to list (default: the whole readable history). search: only this window."),
  after_item: itemId.nullish().describe("list_items: only items after this item id (the `next` of the previous page)."),
  query: z.string().nullish().describe(`search: the text to look for (1 to ${MAX_QUERY_CHARS} characters).`),
  mode: z
    .enum(["literal", "ranked", "hybrid"])
    .nullish()
    .describe(
      "search: 'literal' (default) finds the exact text, case-insensitive, newest first; 'ranked' finds any of the words, most relevant first; " +
        "'hybrid' finds items by meaning as well as by words, most relevant first (when the store has an embedding model).",
    ),
  before_item: itemId
    .nullish()
    .describe("search: only items older than this item id (literal paging: the `next` of the previous page)."),
  offset: integerInput(z.number().int().min(0).max(MAX_SEARCH_OFFSET))
    .nullish()
    .describe(
      "search: skip this many hits (the `next` of the previous page): ranked paging in one session, " +
        "and the paging of a search across sessions (no session_id), literal or ranked. " +
        "list_sessions: skip this many sessions.",
    ),
  role: z.enum(SEARCH_ROLES).nullish().describe("search: only items of this role (tool calls are the assistant's)."),
  tool_name: z
    .string()
    .min(1)
    .max(MAX_TOOL_NAME_CHARS)
    .nullish()
    .describe("search: only items calling this tool (any case)."),
  order: z.enum(SEARCH_ORDERS).nullish().describe("search, ranked only: 'relevance' (default) or 'newest' first."),
  max_item_chars: integerInput(z.number().int().min(ITEM_CHARS.min).max(ITEM_CHARS.max))
    .nullish()
    .describe(
      `search: longest snippet (default ${SNIPPET_MAX_CHARS}); list_items: longest preview (default ${ITEM_PREVIEW_CHARS}).`,
    ),
  item_id: itemId.nullish().describe("read_item: the item to read."),
  session_id: z
    .string()
    .min(1)
    .max(200)
    .nullish()
    .describe(
      "list_windows, list_items, search, read_item: work in this sub-agent session (from list_sessions or a search hit) instead of your own.",
    ),
  offset_chars: integerInput(z.number().int().min(0))
    .nullish()
    .describe("read_item: where the page starts, in characters (default 0)."),
  limit_chars: integerInput(z.number().int().min(1).max(READ_LIMIT_CHARS.max))
    .nullish()
    .describe(
      "read_item: page length in characters " +
        `(default ${READ_LIMIT_CHARS.default}, max ${READ_LIMIT_CHARS.max}); ` +
        "a page may be shorter to keep the result within 16 KiB.",
    ),
});

export type SessionHistoryInput = z.infer<typeof SessionHistoryInputSchema>;

/** What the AI SDK hands to `execute`: any object, to be checked against the strict schema. */
export type SessionHistoryRawInput = Record<string, unknown>;

const fieldNames = Object.keys(SessionHistoryInputSchema.shape) as (keyof typeof SessionHistoryInputSchema.shape)[];

/**
 * The permissive twin given to the AI SDK: renders to the same JSON Schema as
 * `SessionHistoryInputSchema`, accepts any value of any field (unknown fields are dropped, a
 * non-object input becomes `{}`), so that `execute` always runs and can answer with an error result.
 *
 * @example
 * tool({ inputSchema: permissiveInputSchema(), execute: async (input) => ... })
 */
export function permissiveInputSchema({ hybrid = false }: { hybrid?: boolean } = {}): z.ZodType<
  SessionHistoryRawInput,
  unknown
> {
  // Built once each: a route handler makes a session (and this tool) per request, and schemas are immutable.
  if (hybrid) return (permissiveWithHybrid ??= buildPermissiveInputSchema(true));
  return (permissive ??= buildPermissiveInputSchema(false));
}

/** The advertised `mode` of a store without an embedding model: 'hybrid' is not offered (ADR 0063). */
export const lexicalMode = z
  .enum(["literal", "ranked"])
  .nullish()
  .describe(
    "search: 'literal' (default) finds the exact text, case-insensitive, newest first; 'ranked' finds any of the words, most relevant first.",
  );

let permissive: z.ZodType<SessionHistoryRawInput, unknown> | undefined;
let permissiveWithHybrid: z.ZodType<SessionHistoryRawInput, unknown> | undefined;

function buildPermissiveInputSchema(hybrid: boolean): z.ZodType<SessionHistoryRawInput, unknown> {
  const shape: Record<string, z.ZodType> = {};
  for (const name of fieldNames) {
    const strict = name === "mode" && !hybrid ? lexicalMode : SessionHistoryInputSchema.shape[name];
    const { $schema: _dialect, ...json } = z.toJSONSchema(strict, { io: "input", target: "draft-7" }) as Record<
      string,
      unknown
    >;
    shape[name] = (name === "action" ? z.unknown() : z.unknown().optional()).meta(json);
  }
  return z.preprocess((value) => {
    const record =
      typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    // `action` is required in the JSON Schema; a missing one must still reach execute.
    return { ...record, action: record["action"] ?? null };
  }, z.object(shape)) as unknown as z.ZodType<SessionHistoryRawInput, unknown>;
}

export type InputCheck = ToolInputCheck<SessionHistoryInput>;

/**
 * Validates raw tool input against the strict schema; on failure, one message naming each
 * wrong field, what it must be, and what was given (long values summarized, never echoed).
 *
 * @example checkInput({ action: "read_item", item_id: "7" }) // { ok: true, input: { action: "read_item", item_id: "7" } }
 */
export function checkInput(raw: unknown): InputCheck {
  return checkToolInput({
    schema: SessionHistoryInputSchema,
    raw,
    expectations,
    notAnObject: "the input must be an object with at least an 'action' field",
  });
}

/**
 * The message for fields given to an action that does not use them (`ACTION_FIELDS`), or
 * `undefined` when there are none: a filter left out silently would widen what the caller asked for.
 *
 * @example misplacedFields({ action: "read_item", item_id: "4", role: "user" }) // "Invalid input: role applies to search only; …"
 */
export function misplacedFields(input: SessionHistoryInput): string | undefined {
  const problems = Object.entries(ACTION_FIELDS)
    .filter(([field, actions]) => input[field as keyof SessionHistoryInput] != null && !actions.includes(input.action))
    .map(([field, actions]) => `${field} applies to ${actions.join(" and ")} only`);
  return problems.length === 0
    ? undefined
    : `Invalid input: ${problems.join("; ")}; leave ${problems.length === 1 ? "it" : "them"} out of ${input.action}.`;
}
