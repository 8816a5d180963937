/**
 * A small typed client of the `ctxwin serve` API: every call carries the access token as a Bearer
 * header, and an error answer becomes an `ApiError` with the server's code and message.
 */
import type { EvalItemsPage, EvalRunView } from "./eval-types";
import type { TimelineView } from "./timeline-types";
import type {
  InfoView,
  RowsPage,
  SearchMode,
  SearchResult,
  SessionDetail,
  SessionSummary,
  SettingsView,
  Strategy,
  UsageView,
  WindowView,
} from "./types";

/** An error answer of the API (or a network failure, status 0). */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  readonly code: string;

  constructor({ status, code, message }: { status: number; code: string; message: string }) {
    super(message);
    this.status = status;
    this.code = code;
  }

  static isInstance(value: unknown): value is ApiError {
    return value instanceof Error && value.name === "ApiError";
  }
}

/** `skipped` when there was nothing to compact (the reason says why). */
export type CompactResult = { windowId: string; status: "completed" | "skipped"; reason?: string };

export type RowsQuery = { before?: number; after?: number; from?: number; limit?: number; internal?: boolean };

export interface SearchOptions {
  query: string;
  /** hybrid and semantic only when `info().search.modes` holds them. */
  mode: SearchMode;
  limit?: number;
  /** Only hits of this role. */
  role?: "user" | "assistant" | "system";
  /** Only hits that call this tool (any case). */
  tool?: string;
  /** Ranked hits: most relevant (default) or newest first. */
  order?: "relevance" | "newest";
}

export interface ApiClient {
  info(): Promise<InfoView>;
  sessions(options?: { query?: string; limit?: number }): Promise<SessionSummary[]>;
  createSession(): Promise<string>;
  /**
   * Forks a session after `atItem` (the last item the fork shares), or just before the user
   * message `beforeItem` to edit it (a new session for the first message); the new session's id.
   */
  fork(
    sessionId: string,
    options: ({ atItem: string } | { beforeItem: string }) & { newSessionId?: string },
  ): Promise<string>;
  /** The sessions a session's sub-agents ran in, in call order. */
  children(sessionId: string): Promise<SessionSummary[]>;
  session(sessionId: string): Promise<SessionDetail>;
  rows(sessionId: string, query?: RowsQuery): Promise<RowsPage>;
  windows(sessionId: string): Promise<WindowView[]>;
  /** Ranked hits newest first with `order: "newest"`; `role` and `tool` narrow the hits (docs/web-api.md). */
  search(sessionId: string, options: SearchOptions): Promise<SearchResult>;
  usage(sessionId: string): Promise<UsageView>;
  /** The context timeline; without a range, the newest windows (docs/web-api.md). */
  timeline(sessionId: string, range?: { windowId: string; count: number }): Promise<TimelineView>;
  interrupt(sessionId: string): Promise<boolean>;
  clear(sessionId: string): Promise<string>;
  compact(sessionId: string): Promise<CompactResult>;
  settings(): Promise<SettingsView>;
  /** The eval run `ctxwin serve --eval` loaded; a 404 ApiError when none is. */
  evalRun(): Promise<EvalRunView>;
  /** A page of the run's items: a suite's, optionally one strategy's, from a page's `nextCursor` on. */
  evalItems(query: { suite: string; strategy?: string; limit?: number; cursor?: string }): Promise<EvalItemsPage>;
  saveSettings(changes: {
    strategy?: Strategy;
    threshold?: number;
    contextLimit?: number | null;
  }): Promise<SettingsView>;
  /** The URL of the session's event stream (EventSource cannot send headers, so the token goes in the query). */
  eventsUrl(sessionId: string): string;
  /** Where `useChat` posts the session's messages, and the headers it sends (ADR 0057). */
  chatEndpoint(sessionId: string): { url: string; headers: Record<string, string> };
}

/**
 * @example
 * const api = createApiClient({ token });
 * const { sessions } = { sessions: await api.sessions({ query: "demo" }) };
 */
export function createApiClient({
  token,
  base = "",
  fetchImplementation = (input: string, init?: RequestInit) => fetch(input, init),
}: {
  token: string;
  base?: string;
  fetchImplementation?: (input: string, init?: RequestInit) => Promise<Response>;
}): ApiClient {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response: Response;
    try {
      response = await fetchImplementation(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: "omit",
        cache: "no-store",
      });
    } catch (error) {
      throw new ApiError({
        status: 0,
        code: "network",
        message: `The server did not answer (${error instanceof Error ? error.message : String(error)}).`,
      });
    }
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const error = (parsed as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
      throw new ApiError({
        status: response.status,
        code: typeof error?.code === "string" ? error.code : `http-${response.status}`,
        message: typeof error?.message === "string" ? error.message : `The server answered ${response.status}.`,
      });
    }
    return parsed as T;
  }

  const session = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}`;

  return {
    info: () => call<InfoView>("GET", "/api/info"),
    sessions: async ({ query = "", limit = 50 } = {}) =>
      (
        await call<{ sessions: SessionSummary[] }>(
          "GET",
          `/api/sessions?${new URLSearchParams({ q: query, limit: String(limit) })}`,
        )
      ).sessions,
    createSession: async () => (await call<{ sessionId: string }>("POST", "/api/sessions", {})).sessionId,
    fork: async (sessionId, options) =>
      (await call<{ sessionId: string }>("POST", `${session(sessionId)}/fork`, options)).sessionId,
    children: async (sessionId) =>
      (await call<{ sessions: SessionSummary[] }>("GET", `${session(sessionId)}/children`)).sessions,
    session: (sessionId) => call<SessionDetail>("GET", session(sessionId)),
    rows: (sessionId, query = {}) => call<RowsPage>("GET", `${session(sessionId)}/rows?${rowsParameters(query)}`),
    windows: async (sessionId) =>
      (await call<{ windows: WindowView[] }>("GET", `${session(sessionId)}/windows`)).windows,
    search: async (sessionId, { query, mode, limit = 20, role, tool, order }) => {
      const parameters = new URLSearchParams({ q: query, mode, limit: String(limit) });
      if (role !== undefined) parameters.set("role", role);
      if (tool !== undefined && tool.trim() !== "") parameters.set("tool", tool.trim());
      if (order !== undefined) parameters.set("order", order);
      return call<SearchResult>("GET", `${session(sessionId)}/search?${parameters}`);
    },
    usage: (sessionId) => call<UsageView>("GET", `${session(sessionId)}/usage`),
    timeline: (sessionId, range) =>
      call<TimelineView>(
        "GET",
        `${session(sessionId)}/timeline${range === undefined ? "" : `?${new URLSearchParams({ window: range.windowId, count: String(range.count) })}`}`,
      ),
    interrupt: async (sessionId) =>
      (await call<{ interrupted: boolean }>("POST", `${session(sessionId)}/interrupt`, {})).interrupted,
    clear: async (sessionId) => (await call<{ windowId: string }>("POST", `${session(sessionId)}/clear`, {})).windowId,
    compact: (sessionId) => call<CompactResult>("POST", `${session(sessionId)}/compact`, {}),
    settings: () => call<SettingsView>("GET", "/api/settings"),
    evalRun: () => call<EvalRunView>("GET", "/api/eval"),
    evalItems: ({ suite, strategy, limit = 50, cursor }) => {
      const parameters = new URLSearchParams({ suite, limit: String(limit) });
      if (strategy !== undefined) parameters.set("strategy", strategy);
      if (cursor !== undefined) parameters.set("cursor", cursor);
      return call<EvalItemsPage>("GET", `/api/eval/items?${parameters}`);
    },
    saveSettings: (changes) => call<SettingsView>("PUT", "/api/settings", changes),
    eventsUrl: (sessionId) => `${base}${session(sessionId)}/events?${new URLSearchParams({ token })}`,
    chatEndpoint: (sessionId) => ({
      url: `${base}${session(sessionId)}/chat`,
      headers: { Authorization: `Bearer ${token}` },
    }),
  };
}

function rowsParameters({ before, after, from, limit = 100, internal = false }: RowsQuery): URLSearchParams {
  const parameters = new URLSearchParams({ limit: String(limit), internal: String(internal) });
  if (before !== undefined) parameters.set("before", String(before));
  if (after !== undefined) parameters.set("after", String(after));
  if (from !== undefined) parameters.set("from", String(from));
  return parameters;
}
