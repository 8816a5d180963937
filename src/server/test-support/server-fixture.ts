/**
 * A server on 127.0.0.1:0 over a SQLite store in a temp directory, and small helpers to call it:
 * `api` (with the token), `raw` (any method, headers and body, through node:http so that Host can
 * be set), and `events` (an SSE reader).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { createContextAgent } from "../../session/context-agent/create-context-agent.js";
import type { LanguageModel, ToolSet } from "ai";
import { openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";
import type { ServerChat } from "../server-chat.js";
import { startServer, type RunningServer, type StartServerOptions } from "../start-server.js";

export interface ServerFixture {
  directory: string;
  store: HistoryStore;
  server: RunningServer;
  /** Calls the API with the token; the answer's status and parsed JSON (checked by the tests' assertions). */
  api(
    pathAndQuery: string,
    init?: { method?: string; body?: unknown },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<{ status: number; body: any; headers: Headers }>;
  raw(
    options: RawRequest,
  ): Promise<{ status: number; text: string; headers: Record<string, string | string[] | undefined> }>;
  close(): Promise<void>;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * @example
 * const fixture = await startFixture({ seed: async (store) => { await store.append("s1", rows); } });
 * const { body } = await fixture.api("/api/sessions");
 */
export async function startFixture({
  seed,
  chat,
  options = {},
}: {
  seed?: (store: HistoryStore) => Promise<void>;
  chat?: (directory: string) => ServerChat;
  options?: Partial<StartServerOptions>;
} = {}): Promise<ServerFixture> {
  const directory = mkdtempSync(path.join(tmpdir(), "ctxwin-serve-"));
  const store = openStore({ directory });
  await seed?.(store);
  const server = await startServer({
    directory,
    store,
    webRoot: path.join(directory, "no-web-build"),
    log: () => undefined,
    ...(chat === undefined ? {} : { chat: chat(directory) }),
    ...options,
  });
  return {
    directory,
    store,
    server,
    async api(pathAndQuery, init = {}) {
      const response = await fetch(`${server.origin}${pathAndQuery}`, {
        method: init.method ?? "GET",
        headers: {
          Authorization: `Bearer ${server.token}`,
          ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: text.length > 0 && response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text,
        headers: response.headers,
      };
    },
    raw: (options) => rawRequest(server, options),
    async close() {
      await server.close();
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

function rawRequest(
  server: RunningServer,
  { method = "GET", path: requestPath, headers = {}, body }: RawRequest,
): Promise<{ status: number; text: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port: server.port,
        method,
        path: requestPath,
        headers: { Host: `127.0.0.1:${server.port}`, ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString("utf8"),
            headers: response.headers,
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/**
 * A chat whose agents run a given model through the plain session engine (no workspace tools), as
 * `createContextAgent` agents.
 *
 * @example startFixture({ chat: () => scriptedChat({ model }) })
 */
export function scriptedChat({
  model,
  contextLimit = 10_000,
  modelKey = "mock:scripted",
  tools,
}: {
  model: LanguageModel;
  contextLimit?: number;
  modelKey?: string;
  tools?: ToolSet;
}): ServerChat {
  return {
    label: "scripted",
    demo: false,
    modelKey,
    contextLimit,
    createAgent: ({ store, sessionId, config, contextLimit: override, maxInputChars }) =>
      createContextAgent({
        store,
        sessionId,
        model,
        ...(tools === undefined ? {} : { tools }),
        budget: {
          ...(config.budget ?? {}),
          ...(config.strategy === undefined ? {} : { strategy: config.strategy }),
          ...(override === undefined ? {} : { contextLimit: override }),
        },
        logWarning: () => undefined,
        retryDelay: () => 0,
        maxInputChars,
      }),
  };
}

export interface ServerEvent {
  event: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- event data is checked by the tests' assertions
  data: any;
}

/**
 * Reads a session's event stream until `until` accepts an event (or the time runs out).
 *
 * @example const events = await readEvents({ fixture, sessionId: "s1", until: (event) => event.event === "turn-end", start: () => fixture.api(...) });
 */
export async function readEvents({
  fixture,
  sessionId,
  until,
  start,
  timeoutMs = 20_000,
}: {
  fixture: ServerFixture;
  sessionId: string;
  until: (event: ServerEvent) => boolean;
  start?: () => Promise<unknown>;
  timeoutMs?: number;
}): Promise<ServerEvent[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error("no matching event in time")), timeoutMs);
  const response = await fetch(
    `${fixture.server.origin}/api/sessions/${encodeURIComponent(sessionId)}/events?token=${encodeURIComponent(fixture.server.token)}`,
    { signal: controller.signal },
  );
  if (response.body === null) throw new Error("no event stream");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const events: ServerEvent[] = [];
  let buffer = "";
  const startWork = start?.();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let separator: number;
      while ((separator = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, separator);
        buffer = buffer.slice(separator + 2);
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (name === undefined || data === undefined) continue;
        const event = { event: name, data: JSON.parse(data) };
        events.push(event);
        if (until(event)) return events;
      }
    }
    return events;
  } finally {
    clearTimeout(timer);
    controller.abort();
    await startWork;
  }
}
