/**
 * The input of `session_history` over a whole store (the MCP server's tool): the actions of the
 * single-session tool, which then need a `session_id`, plus `list_sessions` and a `search`
 * without `session_id` that looks across sessions, both filtered by project folder, source and
 * date; `list_sessions` pages with `session_offset`, cross-session search by hit with `offset`. The session-scoped fields are validated by the
 * single-session tool itself; this module checks only what it adds.
 */
import { z } from "zod";
import { SESSION_LIMIT } from "../../core/history-view/limits.js";
import { integerFromText, integerInput } from "../../core/integer-input.js";
import { assertSessionId } from "../../core/row.js";
import { SessionHistoryInputSchema, SESSION_HISTORY_ACTIONS } from "../session-history/input-schema.js";
import { describeValue } from "../workspace/input-check.js";
import { SESSION_SOURCES, type SessionFilter, type SessionSource } from "./session-descriptors.js";

export const CATALOG_ACTIONS = [
  "list_sessions",
  ...SESSION_HISTORY_ACTIONS.filter((action) => action !== "list_sessions"),
] as const;
export type CatalogAction = (typeof CATALOG_ACTIONS)[number];

/** Fields only the store-wide tool has. */
export const CATALOG_FIELDS = ["session_id", "project", "source", "since", "until", "session_offset"] as const;
const FILTER_FIELDS = ["project", "source", "since", "until", "session_offset"] as const;

export const MAX_SESSION_OFFSET = 1_000_000;
const MAX_PROJECT_FILTER_CHARS = 4_096;

/**
 * The input as an MCP client sees it (JSON Schema). Optional fields are nullish.
 *
 * @example CatalogInputSchema.parse({ action: "list_sessions", source: "claude-code" })
 */
export const CatalogInputSchema = SessionHistoryInputSchema.extend({
  action: z
    .enum(CATALOG_ACTIONS)
    .describe(
      "list_sessions: the sessions of the store, newest activity first. " +
        "search: find items by text, in one session (session_id) or across sessions (no session_id). " +
        "list_windows, list_items, read_item: as for one session; they need session_id.",
    ),
  session_id: z
    .string()
    .nullish()
    .describe(
      "The session to look into, as list_sessions and cross-session search show it. Required by list_windows, list_items and read_item.",
    ),
  project: z
    .string()
    .nullish()
    .describe("list_sessions and cross-session search: only sessions that ran in this folder or below it."),
  source: z
    .enum(SESSION_SOURCES)
    .nullish()
    .describe(
      "list_sessions and cross-session search: only sessions imported from this agent ('claude-code', 'codex') or written by ctxwin ('ctxwin').",
    ),
  since: z
    .string()
    .nullish()
    .describe(
      "list_sessions and cross-session search: only sessions active at or after this date or time (ISO 8601, e.g. '2026-11-03').",
    ),
  until: z
    .string()
    .nullish()
    .describe(
      "list_sessions and cross-session search: only sessions that started at or before this date or time (ISO 8601; a date means the end of that day).",
    ),
  session_offset: integerInput(z.number().int().min(0).max(MAX_SESSION_OFFSET))
    .nullish()
    .describe(
      "list_sessions: skip this many sessions (the `next` of the previous page). " +
        "A search across sessions reads every session in one call and pages with offset (session_offset is ignored there).",
    ),
});

export type CatalogInput = z.infer<typeof CatalogInputSchema>;

/** What the store-wide tool does with one call, once its own fields are checked. */
export type CatalogRequest =
  | { kind: "list_sessions"; filter: SessionFilter; offset: number; limit: number | undefined }
  | { kind: "search_sessions"; filter: SessionFilter; offset: number; input: Record<string, unknown> }
  | { kind: "one_session"; sessionId: string; input: Record<string, unknown> };

export type CatalogCheck =
  { ok: true; request: CatalogRequest } | { ok: false; action: CatalogAction | null; message: string };

/**
 * Checks the store-wide fields and splits the call: the rest of the input goes, unchanged, to the
 * single-session tool (which checks it the same way as for an agent's own session).
 *
 * @example checkCatalogInput({ action: "read_item", session_id: "s1", item_id: "4" }) // one_session
 */
export function checkCatalogInput(raw: unknown): CatalogCheck {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return {
      ok: false,
      action: null,
      message: "Invalid input: the input must be an object with at least an 'action' field.",
    };
  }
  const record = raw as Record<string, unknown>;
  const action = (CATALOG_ACTIONS as readonly unknown[]).includes(record["action"])
    ? (record["action"] as CatalogAction)
    : null;
  if (action === null) {
    const given =
      record["action"] === undefined || record["action"] === null
        ? "it is missing"
        : `got ${describeValue(record["action"])}`;
    return {
      ok: false,
      action,
      message: `Invalid input: action must be one of ${CATALOG_ACTIONS.map((name) => `'${name}'`).join(", ")}; ${given}.`,
    };
  }
  const fail = (message: string): CatalogCheck => ({ ok: false, action, message: `Invalid input: ${message}` });
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record))
    if (!(CATALOG_FIELDS as readonly string[]).includes(key)) rest[key] = value;
  const given = (field: string) => record[field] !== undefined && record[field] !== null;

  const sessionId = record["session_id"];
  if (given("session_id")) {
    if (typeof sessionId !== "string")
      return fail(`session_id must be a session id as list_sessions shows it; got ${describeValue(sessionId)}.`);
    try {
      assertSessionId(sessionId);
    } catch {
      return fail(`session_id ${describeValue(sessionId)} is not a valid session id; call list_sessions for the ids.`);
    }
    if (action === "list_sessions") return fail("list_sessions lists every session; leave out session_id.");
    const filters = FILTER_FIELDS.filter(given);
    if (filters.length > 0) return fail(misplacedFilters(filters));
    return { ok: true, request: { kind: "one_session", sessionId, input: rest } };
  }
  if (action !== "list_sessions" && action !== "search") {
    return fail(`${action} needs session_id: call list_sessions or search (without session_id) to find the session.`);
  }

  const filter = checkFilter(record);
  if (typeof filter === "string") return fail(filter);
  const offset = integerFromText(record["session_offset"] ?? 0);
  if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0 || offset > MAX_SESSION_OFFSET) {
    return fail(
      `session_offset must be an integer from 0 to ${MAX_SESSION_OFFSET}; got ${describeValue(record["session_offset"])}.`,
    );
  }
  if (action === "search") return { ok: true, request: { kind: "search_sessions", filter, offset, input: rest } };
  const extra = Object.keys(rest).filter((key) => key !== "action" && key !== "limit" && given(key));
  if (extra.length > 0)
    return fail(
      `list_sessions takes limit, session_offset, project, source, since and until; leave out ${extra.join(", ")}.`,
    );
  const limit = integerFromText(record["limit"] ?? undefined);
  if (
    limit !== undefined &&
    (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > SESSION_LIMIT.max)
  ) {
    return fail(`limit must be an integer from 1 to ${SESSION_LIMIT.max}; got ${describeValue(record["limit"])}.`);
  }
  return { ok: true, request: { kind: "list_sessions", filter, offset, limit } };
}

/** "project applies to …" / "source and since apply to …": the session filters given with a session_id. */
function misplacedFilters(fields: readonly string[]): string {
  const { names, verb, pronoun } = fieldPhrase(fields, { singular: "applies", plural: "apply" });
  return `${names} ${verb} to list_sessions and to search without session_id; leave ${pronoun} out when session_id is given.`;
}

/**
 * Field names as the subject of a sentence: "project applies", "source and since apply".
 *
 * @example fieldPhrase(["a", "b", "c"], { singular: "is", plural: "are" }) // { names: "a, b and c", verb: "are", pronoun: "them" }
 */
export function fieldPhrase(
  fields: readonly string[],
  verbs: { singular: string; plural: string },
): { names: string; verb: string; pronoun: string } {
  if (fields.length === 1) return { names: fields[0]!, verb: verbs.singular, pronoun: "it" };
  return { names: `${fields.slice(0, -1).join(", ")} and ${fields.at(-1)!}`, verb: verbs.plural, pronoun: "them" };
}

function checkFilter(record: Record<string, unknown>): SessionFilter | string {
  const filter: SessionFilter = {};
  const project = record["project"] ?? undefined;
  if (project !== undefined) {
    if (typeof project !== "string" || project.trim() === "" || project.length > MAX_PROJECT_FILTER_CHARS) {
      return `project must be a folder path of 1 to ${MAX_PROJECT_FILTER_CHARS} characters; got ${describeValue(project)}.`;
    }
    filter.project = project.trim();
  }
  const source = record["source"] ?? undefined;
  if (source !== undefined) {
    if (!(SESSION_SOURCES as readonly unknown[]).includes(source))
      return `source must be one of ${SESSION_SOURCES.map((name) => `'${name}'`).join(", ")}; got ${describeValue(source)}.`;
    filter.source = source as SessionSource;
  }
  for (const field of ["since", "until"] as const) {
    const value = record[field] ?? undefined;
    if (value === undefined) continue;
    const time = typeof value === "string" ? isoBound(value, field) : undefined;
    if (time === undefined)
      return `${field} must be an ISO 8601 date or time such as '2026-11-03' or '2026-11-03T14:00:00Z'; got ${describeValue(value)}.`;
    filter[field] = time;
  }
  return filter;
}

/** A date or time as an ISO string; a bare `until` date means the end of that day (UTC). */
function isoBound(value: string, field: "since" | "until"): string | undefined {
  const text = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) return undefined;
  const dateOnly = text.length === 10;
  const time = Date.parse(dateOnly ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(time)) return undefined;
  return new Date(dateOnly && field === "until" ? time + 86_400_000 - 1 : time).toISOString();
}
