/**
 * The session tree over HTTP (ADR 0070): a session's children (the sessions its sub-agents ran
 * in) and forking a session at an item (`store.fork`, ADR 0059) or just before a user message to
 * edit it (`beforeItem`, `forkForEdit`, ADR 0068). A fork is refused while the
 * session runs a turn (409 busy), into an id that exists (409 session-exists), at an item that
 * is not the session's or lies at or behind its privacy floor (400), of an unknown session (404).
 */
import { z } from "zod";
import { assertSessionId } from "../core/row.js";
import { EditRefusedError } from "../session/lineage/edit-refused-error.js";
import { forkForEdit } from "../session/lineage/fork-stored-session.js";
import { ForkRefusedError } from "../store/lineage/lineage-errors.js";
import { visibleSessions } from "../store/lineage/session-visibility.js";
import type { HistoryStore } from "../store/port.js";
import { ApiError, badRequest, notFound } from "./api-error.js";
import type { ChatSessions } from "./chat-sessions.js";
import { readJsonBody, sendJson } from "./http-io.js";
import type { Route } from "./router.js";
import type { TitleCache } from "./session-list.js";
import type { SessionListEntry } from "./view-types.js";

const itemId = z
  .union([z.string().regex(/^[1-9][0-9]{0,15}$/, 'expected an item id such as "12"'), z.number().int().min(1)])
  .transform(Number)
  .refine(Number.isSafeInteger, 'expected an item id such as "12"');
const forkBody = z
  .strictObject({
    atItem: itemId.optional(),
    beforeItem: itemId.optional(),
    newSessionId: z.string().superRefine(validSessionId).optional(),
  })
  .refine(
    (body) => (body.atItem === undefined) !== (body.beforeItem === undefined),
    "give atItem (the last item the fork shares) or beforeItem (a user message to edit), one of the two",
  );

export interface LineageDependencies {
  store: HistoryStore;
  chats: ChatSessions;
  titles: TitleCache;
  /** The session an id names (stored, or created and not stored yet); else a 400/404 ApiError. */
  knownSession: (id: string | undefined) => Promise<{ sessionId: string }>;
  parse: <T>(schema: z.ZodType<T>, value: unknown, what: string) => T;
}

/**
 * @example const routes = [...apiRoutes(dependencies), ...lineageRoutes({ store, chats, titles, knownSession, parse })];
 */
export function lineageRoutes({ store, chats, titles, knownSession, parse }: LineageDependencies): Route[] {
  return [
    {
      method: "GET",
      path: "/api/sessions/:id/children",
      handler: async ({ response, params }) => {
        const { sessionId } = await knownSession(params["id"]);
        // Only the children no clear hides (ADR 0073): a call at or before the floor started none to show.
        const children = await visibleSessions({
          store,
          summaries: await store.sessions({ parentSessionId: sessionId }),
        });
        const entries = await Promise.all(children.map((child) => titles.entryOf(child)));
        sendJson({ response, status: 200, body: { sessions: entries.sort(startOrder) } });
      },
    },
    {
      method: "POST",
      path: "/api/sessions/:id/fork",
      handler: async ({ request, response, params }) => {
        const { sessionId } = await knownSession(params["id"]);
        const body = parse(forkBody, await readJsonBody({ request }), "body");
        chats.requireIdle(sessionId);
        const newSessionId = body.newSessionId ?? chats.newSessionId("fork");
        if (chats.isCreated(newSessionId)) throw sessionExists(newSessionId);
        if (body.beforeItem !== undefined) {
          sendJson({
            response,
            status: 201,
            body: await forkToEdit({ store, chats, sessionId, itemId: String(body.beforeItem), newSessionId }),
          });
          return;
        }
        try {
          await store.fork(sessionId, { atSeq: body.atItem ?? 0, newSessionId });
        } catch (error) {
          throw forkFailure(error);
        }
        sendJson({
          response,
          status: 201,
          body: { sessionId: newSessionId, forkOf: { sessionId, atItem: String(body.atItem) } },
        });
      },
    },
  ];
}

/**
 * Where an edited message goes (ADR 0068): a fork just before it and before what ctxwin wrote with
 * it (`forkForEdit`), or, for the first message (after a clear too), a new session of this server.
 */
async function forkToEdit({
  store,
  chats,
  sessionId,
  itemId,
  newSessionId,
}: {
  store: HistoryStore;
  chats: ChatSessions;
  sessionId: string;
  itemId: string;
  newSessionId: string;
}): Promise<{ sessionId: string; forkOf: { sessionId: string; atItem: string } | null }> {
  let edit: Awaited<ReturnType<typeof forkForEdit>>;
  try {
    edit = await forkForEdit({ store, sessionId, itemId, newSessionId });
  } catch (error) {
    throw forkFailure(error);
  }
  if (!edit.linked) return { sessionId: chats.createSession(edit.sessionId), forkOf: null };
  return { sessionId: edit.sessionId, forkOf: { sessionId, atItem: String(edit.point.atSeq) } };
}

function validSessionId(value: string, context: z.RefinementCtx): void {
  try {
    assertSessionId(value);
  } catch (error) {
    context.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
  }
}

/** Children in the order their calls were made: by the parent's item, then by id. */
function startOrder(left: SessionListEntry, right: SessionListEntry): number {
  const byItem = Number(left.parent?.itemId ?? 0) - Number(right.parent?.itemId ?? 0);
  return byItem !== 0 ? byItem : left.sessionId < right.sessionId ? -1 : left.sessionId > right.sessionId ? 1 : 0;
}

function sessionExists(sessionId: string): ApiError {
  return new ApiError({
    status: 409,
    code: "session-exists",
    message: `A session '${sessionId}' exists already: pick another id for the fork.`,
  });
}

/** The store's refusal as the API's error; anything else is passed on. */
function forkFailure(error: unknown): unknown {
  if (EditRefusedError.isInstance(error)) return badRequest(error.message);
  if (!ForkRefusedError.isInstance(error)) return error;
  if (error.reason === "unknown-session") return notFound(error.message);
  if (error.reason === "session-exists")
    return new ApiError({ status: 409, code: "session-exists", message: error.message });
  return badRequest(error.message);
}
