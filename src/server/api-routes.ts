/**
 * The API routes of docs/web-api.md over the library: sessions, transcript pages, windows,
 * search, usage, chat, settings and the event stream. Query and body are validated with zod; bad
 * input is a 400, an unknown session a 404.
 */
import type { ServerResponse } from "node:http";
import { z } from "zod";
import { assertSessionId } from "../core/row.js";
import { visibleSession } from "../store/lineage/session-visibility.js";
import type { HistoryStore } from "../store/port.js";
import { badRequest, notFound } from "./api-error.js";
import { MAX_MESSAGE_CHARS, type ChatSessions } from "./chat-sessions.js";
import { MAX_CHAT_BODY_BYTES } from "./chat-answer.js";
import type { EventHub } from "./event-hub.js";
import { searchHistory } from "./history-search.js";
import { MAX_TOOL_NAME_CHARS, SEARCH_ORDERS, SEARCH_ROLES } from "../core/search-filter.js";
import { readJsonBody, sendJson } from "./http-io.js";
import type { Route, RouteContext } from "./router.js";
import { lineageRoutes } from "./lineage-routes.js";
import { lineageOf, listSessionEntries, type TitleCache } from "./session-list.js";
import type { WindowCache } from "./session-windows.js";
import type { SettingsStore } from "./settings-file.js";
import { transcriptPage, type PagePosition } from "./transcript-pages.js";
import { windowViews } from "./window-views.js";
import { MAX_TIMELINE_WINDOWS, timelineView } from "./timeline-view.js";
import { timelineSettingsOf } from "../core/timeline/timeline-settings.js";
import { evalItems, evalView, type EvalSource } from "./eval-view.js";
import type { InfoView, SessionDetail } from "./view-types.js";

export { MAX_MESSAGE_CHARS } from "./chat-sessions.js";

export interface ApiDependencies {
  store: HistoryStore;
  directory: string;
  version: string;
  chats: ChatSessions;
  hub: EventHub;
  settings: SettingsStore;
  windows: WindowCache;
  titles: TitleCache;
  /** The eval run `ctxwin serve --eval` loaded, if any. */
  eval?: EvalSource;
}

const seqParameter = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const booleanParameter = z.enum(["true", "false", "1", "0"]).transform((value) => value === "true" || value === "1");

const sessionsQuery = z.object({
  q: z.string().max(500).default(""),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
const rowsQuery = z
  .object({
    before: seqParameter.optional(),
    after: seqParameter.optional(),
    from: seqParameter.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
    internal: booleanParameter.default(false),
  })
  .refine((query) => [query.before, query.after, query.from].filter((value) => value !== undefined).length <= 1, {
    message: "give at most one of before, after and from",
  });
const searchQuery = z.object({
  // Its length and words are checked by the store's rule (`queryProblem`), which says what to send instead.
  q: z.string(),
  mode: z.enum(["literal", "ranked", "hybrid", "semantic"]).default("literal"),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  role: z.enum(SEARCH_ROLES).optional(),
  tool: z.string().trim().min(1).max(MAX_TOOL_NAME_CHARS).optional(),
  order: z.enum(SEARCH_ORDERS).optional(),
});
const timelineQuery = z.object({
  window: z
    .string()
    .regex(/^w:(0|[1-9][0-9]{0,15})$/, "expected a window id such as w:0 or w:120")
    .optional(),
  count: z.coerce.number().int().min(1).max(MAX_TIMELINE_WINDOWS).optional(),
});
/** A page of eval items: a suite's, optionally one strategy's; the cursor is the number of items already shown (ADR 0088). */
const evalItemsQuery = z.object({
  suite: z.string().min(1).max(200),
  strategy: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,15})$/, "expected the nextCursor of the previous page")
    .default("0")
    .transform(Number),
});
const emptyBody = z.union([z.undefined(), z.strictObject({})]);
const messageBody = z.strictObject({
  text: z
    .string()
    .refine((text) => text.trim().length > 0, "the message is empty")
    .refine((text) => text.length <= MAX_MESSAGE_CHARS, `the message is longer than ${MAX_MESSAGE_CHARS} characters`),
});
/** A `useChat` request (DefaultChatTransport's body); the messages are validated by the AI SDK. */
const chatBody = z.strictObject({
  id: z.string().max(500).optional(),
  messages: z.array(z.unknown()).min(1, "no messages: the last one must be the user's new message").max(10_000),
  trigger: z
    .literal(
      "submit-message",
      "only 'submit-message' is supported: ctxwin keeps the transcript, so a reply is not regenerated",
    )
    .optional(),
  messageId: z.string().max(500).optional(),
});
const settingsBody = z.strictObject({
  strategy: z.enum(["rollover", "compact", "off"]).optional(),
  threshold: z.number().min(0.1).max(0.95).optional(),
  contextLimit: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullable().optional(),
});

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
  throw badRequest(`Bad ${what}: ${details}.`);
}

function queryOf(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (key !== "token") query[key] = value;
  return query;
}

/** The search modes the server answers: hybrid and semantic only with an embedding model (ADR 0063). */
function searchInfo(store: HistoryStore): InfoView["search"] {
  const model = store.embeddings?.model;
  return model === undefined
    ? { modes: ["literal", "ranked"], embeddingModel: null }
    : { modes: ["literal", "ranked", "hybrid", "semantic"], embeddingModel: model };
}

/**
 * @example const router = createRouter(apiRoutes(dependencies));
 */
export function apiRoutes(dependencies: ApiDependencies): Route[] {
  const { store, chats, hub, settings, windows, titles } = dependencies;

  /**
   * The session an id names: stored and visible, or created here and not stored yet; else 400/404.
   * A child a clear above it hides (ADR 0073) is a 404 like an unknown session, on every route.
   */
  async function knownSession(id: string | undefined) {
    try {
      assertSessionId(id);
    } catch {
      throw badRequest(`Malformed session id ${JSON.stringify(id)}.`);
    }
    const summary = await visibleSession({ store, sessionId: id });
    if (summary === undefined && !chats.isCreated(id)) throw notFound(`Unknown session '${id}'.`);
    return { sessionId: id, summary };
  }

  const json = (response: ServerResponse, body: unknown, status = 200) => sendJson({ response, status, body });

  /** `POST /api/sessions/:id/<action>` with an empty body, answered with what `act` returns. */
  const sessionAction = (action: string, act: (sessionId: string) => unknown): Route => ({
    method: "POST",
    path: `/api/sessions/:id/${action}`,
    handler: async ({ request, response, params }) => {
      const { sessionId } = await knownSession(params["id"]);
      parse(emptyBody, await readJsonBody({ request }), "body");
      json(response, await act(sessionId));
    },
  });

  return [
    {
      method: "GET",
      path: "/api/info",
      handler: async ({ response }) => {
        const info: InfoView = {
          version: dependencies.version,
          dir: dependencies.directory,
          chat: { available: chats.available, model: chats.label, demo: chats.demo },
          eval: { loaded: dependencies.eval !== undefined, file: dependencies.eval?.file ?? null },
          search: searchInfo(store),
        };
        json(response, info);
      },
    },
    {
      method: "GET",
      path: "/api/eval",
      handler: async ({ response }) => {
        if (dependencies.eval === undefined)
          throw notFound("No eval results are loaded: start the server with ctxwin serve --eval <results.jsonl>.");
        json(response, await evalView(dependencies.eval));
      },
    },
    {
      method: "GET",
      path: "/api/eval/items",
      handler: async ({ response, url }) => {
        if (dependencies.eval === undefined)
          throw notFound("No eval results are loaded: start the server with ctxwin serve --eval <results.jsonl>.");
        const { strategy, ...query } = parse(evalItemsQuery, queryOf(url), "query");
        json(
          response,
          await evalItems(dependencies.eval, { ...query, ...(strategy === undefined ? {} : { strategy }) }),
        );
      },
    },
    {
      method: "GET",
      path: "/api/sessions",
      handler: async ({ response, url }) => {
        const query = parse(sessionsQuery, queryOf(url), "query");
        const sessions = await listSessionEntries({
          store,
          titles,
          query: query.q,
          limit: query.limit,
          extra: chats.createdEntries(),
        });
        json(response, { sessions });
      },
    },
    {
      method: "POST",
      path: "/api/sessions",
      handler: async ({ request, response }) => {
        parse(emptyBody, await readJsonBody({ request }), "body");
        json(response, { sessionId: chats.createSession() }, 201);
      },
    },
    {
      method: "GET",
      path: "/api/sessions/:id",
      handler: async ({ response, params }) => {
        const { sessionId, summary } = await knownSession(params["id"]);
        const [entry, usage] = await Promise.all([
          summary === undefined ? undefined : titles.entryOf(summary),
          chats.usage(sessionId),
        ]);
        const detail: SessionDetail = {
          sessionId,
          title: entry?.title ?? sessionId,
          lastActivity: entry?.lastActivity ?? chats.createdAt(sessionId) ?? null,
          windows: entry?.windows ?? 0,
          rows: entry?.rows ?? 0,
          lastSeq: summary?.lastSeq ?? 0,
          usage,
          busy: chats.isBusy(sessionId),
          ...lineageOf(summary),
        };
        json(response, detail);
      },
    },
    {
      method: "GET",
      path: "/api/sessions/:id/rows",
      handler: async ({ response, params, url }) => {
        const { sessionId } = await knownSession(params["id"]);
        const query = parse(rowsQuery, queryOf(url), "query");
        const position: PagePosition =
          query.before !== undefined
            ? { kind: "before", seq: query.before }
            : query.after !== undefined
              ? { kind: "after", seq: query.after }
              : query.from !== undefined
                ? { kind: "from", seq: query.from }
                : { kind: "newest" };
        json(
          response,
          await transcriptPage({
            store,
            sessionId,
            windows: await windows.windowsOf(sessionId),
            position,
            limit: query.limit,
            internal: query.internal,
          }),
        );
      },
    },
    {
      method: "GET",
      path: "/api/sessions/:id/windows",
      handler: async ({ response, params }) => {
        const { sessionId } = await knownSession(params["id"]);
        json(response, {
          windows: await windowViews({ store, sessionId, windows: await windows.windowsOf(sessionId) }),
        });
      },
    },
    {
      method: "GET",
      path: "/api/sessions/:id/timeline",
      handler: async ({ response, params, url }) => {
        const { sessionId } = await knownSession(params["id"]);
        const query = parse(timelineQuery, queryOf(url), "query");
        const [sessionWindows, read] = await Promise.all([windows.windowsOf(sessionId), settings.read()]);
        json(
          response,
          await timelineView({
            store,
            sessionId,
            windows: sessionWindows,
            settings: timelineSettingsOf(read.config),
            windowId: query.window,
            count: query.count,
          }),
        );
      },
    },
    {
      method: "GET",
      path: "/api/sessions/:id/search",
      handler: async ({ response, params, url }) => {
        const { sessionId } = await knownSession(params["id"]);
        const query = parse(searchQuery, queryOf(url), "query");
        const result = await searchHistory({
          store,
          sessionId,
          windows: await windows.windowsOf(sessionId),
          query: query.q,
          mode: query.mode,
          limit: query.limit,
          filter: { role: query.role, toolName: query.tool },
          ...(query.order === undefined ? {} : { order: query.order }),
        });
        json(response, result);
      },
    },
    {
      method: "GET",
      path: "/api/sessions/:id/usage",
      handler: async ({ response, params }) => {
        const { sessionId } = await knownSession(params["id"]);
        json(response, await chats.usage(sessionId));
      },
    },
    {
      method: "POST",
      path: "/api/sessions/:id/messages",
      handler: async ({ request, response, params }) => {
        const { sessionId } = await knownSession(params["id"]);
        const body = parse(messageBody, await readJsonBody({ request }), "body");
        await chats.send(sessionId, body.text);
        json(response, { accepted: true }, 202);
      },
    },
    {
      method: "POST",
      path: "/api/sessions/:id/chat",
      handler: async ({ request, response, params }) => {
        const { sessionId } = await knownSession(params["id"]);
        const body = parse(chatBody, await readJsonBody({ request, maxBytes: MAX_CHAT_BODY_BYTES }), "body");
        await chats.streamChat(sessionId, { uiMessages: body.messages, response });
      },
    },
    sessionAction("interrupt", (sessionId) => ({ interrupted: chats.interrupt(sessionId) })),
    sessionAction("clear", (sessionId) => chats.clear(sessionId)),
    sessionAction("compact", (sessionId) => chats.compact(sessionId)),
    {
      method: "GET",
      path: "/api/sessions/:id/events",
      handler: async ({ response, params }: RouteContext) => {
        const { sessionId, summary } = await knownSession(params["id"]);
        hub.subscribe({ sessionId, response, lastSeq: summary?.lastSeq ?? 0 });
      },
    },
    ...lineageRoutes({ store, chats, titles, knownSession, parse }),
    {
      method: "GET",
      path: "/api/settings",
      handler: async ({ response }) => json(response, (await settings.read()).view),
    },
    {
      method: "PUT",
      path: "/api/settings",
      handler: async ({ request, response }) => {
        const change = parse(settingsBody, await readJsonBody({ request }), "body");
        const view = await settings.write(change);
        chats.settingsChanged();
        json(response, view);
      },
    },
  ];
}
