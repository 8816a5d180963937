/**
 * `startServer`: the HTTP server of `ctxwin serve` on plain node:http (not Hono: ADR 0101). Every
 * request passes the Host/Origin checks; `/api/*` also needs the per-start token; everything else is
 * the bundled front end. Answers are JSON (errors `{ error: { code, message } }`, never a stack trace).
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { StoreReadOnlyError } from "../store/errors.js";
import { openStore, type OpenStoreOptions } from "../store/open-store.js";
import type { HistoryStore } from "../store/port.js";
import { ApiError } from "./api-error.js";
import { apiRoutes } from "./api-routes.js";
import { createChatSessions } from "./chat-sessions.js";
import { createEventHub } from "./event-hub.js";
import type { EvalSource } from "./eval-view.js";
import { sendError } from "./http-io.js";
import { createRequestGuard, isLoopbackHost } from "./request-guards.js";
import { createRouter } from "./router.js";
import type { ServerChat } from "./server-chat.js";
import { createTitleCache } from "./session-list.js";
import { createWindowCache } from "./session-windows.js";
import { createSettingsStore } from "./settings-file.js";
import { defaultWebRoot, serveStaticFile } from "./static-files.js";
import { packageJson } from "../package-root.js";

export interface StartServerOptions {
  /** Project directory: the store is `<directory>/.ctxwin/ctxwin.db`, settings `<directory>/.ctxwin/config.json`. */
  directory: string;
  /** Address to bind (default loopback `127.0.0.1`). */
  host?: string;
  /** Port (default 0: a free port). */
  port?: number;
  /** Access token (default: 32 random bytes, base64url). */
  token?: string;
  /** Chat with an agent; without it the server is view-only (`chat.available: false`). */
  chat?: ServerChat;
  /** The built front end (default `dist/web/`). */
  webRoot?: string;
  /** An open store to use instead of opening the directory's (it is not closed by `close`). */
  store?: HistoryStore;
  /** How to open the store instead (e.g. a PostgreSQL URL); default the directory's. Closed by `close`. */
  storeOptions?: OpenStoreOptions;
  /** An eval run to show (`GET /api/eval`); `ctxwin serve --eval` reads the results file. */
  eval?: EvalSource;
  /** Seams for tests. */
  pingIntervalMs?: number;
  pollIntervalMs?: number;
  log?: (message: string, error: unknown) => void;
}

export interface RunningServer {
  /** What to open in a browser: `http://127.0.0.1:PORT/?token=TOKEN`. */
  url: string;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  token: string;
  host: string;
  port: number;
  /** Whether the bound address is loopback only. */
  loopback: boolean;
  /** Stops accepting requests, interrupts running turns, ends event streams, closes the store. */
  close(): Promise<void>;
}

const packageVersion = readVersion();

/**
 * @example
 * const server = await startServer({ directory: process.cwd() });
 * console.log(`ctxwin serve: ${server.url}`);
 * await server.close();
 */
export async function startServer({
  directory,
  host = "127.0.0.1",
  port = 0,
  token = randomBytes(32).toString("base64url"),
  chat,
  webRoot = defaultWebRoot(),
  store: givenStore,
  storeOptions,
  eval: evalSource,
  pingIntervalMs,
  pollIntervalMs,
  log = (message, error) => console.error(message, error),
}: StartServerOptions): Promise<RunningServer> {
  const root = path.resolve(directory);
  const store = givenStore ?? openServedStore(storeOptions ?? { directory: root }, log);
  const settings = createSettingsStore({
    directory: root,
    modelKey: chat?.modelKey,
    ...(chat?.contextLimit === undefined ? {} : { initialContextLimit: chat.contextLimit }),
  });
  const hub = createEventHub({
    store,
    ...(pingIntervalMs === undefined ? {} : { pingIntervalMs }),
    ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
    onRowsChanged: async (sessionId) => {
      // The hub calls this only once requests are served, after `chats` exists.
      if (!chats.isBusy(sessionId)) hub.emit(sessionId, "usage", await chats.usage(sessionId));
    },
    log,
  });
  const chats = createChatSessions({ store, directory: root, chat, settings, hub, log });
  const router = createRouter(
    apiRoutes({
      store,
      directory: root,
      version: packageVersion,
      chats,
      hub,
      settings,
      windows: createWindowCache({ store }),
      titles: createTitleCache({ store }),
      ...(evalSource === undefined ? {} : { eval: evalSource }),
    }),
  );

  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const boundPort = (server.address() as AddressInfo).port;
  const guard = createRequestGuard({ host, port: boundPort, token });

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const method = request.method ?? "GET";
    const url = new URL(request.url ?? "/", "http://server.invalid");
    guard.checkOrigin(request);
    if (url.pathname === "/api" || url.pathname.startsWith("/api/")) {
      guard.checkToken(request, url);
      const { handler, params } = router.match(method, url.pathname);
      await handler({ request, response, url, params });
      return;
    }
    if (method !== "GET" && method !== "HEAD")
      throw new ApiError({
        status: 405,
        code: "method-not-allowed",
        message: `${method} is not allowed on ${url.pathname}.`,
      });
    await serveStaticFile({ webRoot, pathname: url.pathname, response, head: method === "HEAD" });
  };

  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error: unknown) => sendError({ response, error, log }));
  });

  const hostInUrl = host.includes(":") ? `[${host}]` : host;
  const origin = `http://${hostInUrl}:${boundPort}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/?token=${encodeURIComponent(token)}`,
    origin,
    token,
    host,
    port: boundPort,
    loopback: isLoopbackHost(host),
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        hub.close();
        await chats.close();
        server.closeAllConnections();
        await stopped;
        if (givenStore === undefined) await store.close();
      })();
      return closing;
    },
  };
}

function readVersion(): string {
  try {
    return packageJson().version;
  } catch {
    return "unknown";
  }
}

/**
 * The project's store, written by chat turns. In a folder this user cannot write it is served
 * read-only instead: browsing and search work, and a write is answered 409 `read-only`.
 */
function openServedStore(options: OpenStoreOptions, log: (message: string, error: unknown) => void): HistoryStore {
  try {
    return openStore(options);
  } catch (error) {
    if (!StoreReadOnlyError.isInstance(error) || "url" in options || options.backend === "memory") throw error;
    const store = openStore({ ...options, backend: "sqlite", readOnly: true });
    log("ctxwin serve: serving the history read-only (sending and clearing are refused):", error);
    return store;
  }
}
