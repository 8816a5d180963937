/**
 * Server-sent events per session: subscribers of `/api/sessions/:id/events` receive what the
 * session's agent does (`text-delta`, `usage`, `turn-end`, …) and a `rows` event whenever the
 * stored transcript grew — also when another process (e.g. `ctxwin chat`) wrote it, because a
 * watched session's last seq is polled (an O(1) read). A `: ping` comment keeps idle streams open.
 */
import type { ServerResponse } from "node:http";
import type { HistoryStore } from "../store/port.js";
import { SECURITY_HEADERS } from "./http-io.js";
import type { ServerEventMap, ServerEventName } from "./view-types.js";

export interface EventHubOptions {
  store: HistoryStore;
  /** Comment sent on idle streams (default every 15 s). */
  pingIntervalMs?: number;
  /** How often a watched session's last seq is checked (default 1 s). */
  pollIntervalMs?: number;
  /** Called after a watched session's stored rows changed (e.g. to send a fresh `usage`). */
  onRowsChanged?: (sessionId: string) => Promise<void>;
  log?: (message: string, error: unknown) => void;
}

interface Watch {
  subscribers: Set<ServerResponse>;
  lastSeq: number;
  polling: boolean;
}

/**
 * @example
 * const hub = createEventHub({ store });
 * hub.subscribe({ sessionId: "s1", response, lastSeq: 12 });
 * hub.emit("s1", "text-delta", { delta: "Hel" });
 */
export function createEventHub({
  store,
  pingIntervalMs = 15_000,
  pollIntervalMs = 1_000,
  onRowsChanged,
  log = console.error,
}: EventHubOptions) {
  const watches = new Map<string, Watch>();
  let closed = false;

  const write = (response: ServerResponse, chunk: string) => {
    if (!response.writableEnded && !response.destroyed) response.write(chunk);
  };

  const emit = <Name extends ServerEventName>(sessionId: string, name: Name, data: ServerEventMap[Name]) => {
    const watch = watches.get(sessionId);
    if (watch === undefined) return;
    const chunk = `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const response of watch.subscribers) write(response, chunk);
  };

  /** Reports new rows once per change of the last seq, whoever noticed it first; `true` when it was new. */
  const noticeLastSeq = (sessionId: string, lastSeq: number): boolean => {
    const watch = watches.get(sessionId);
    if (watch === undefined || lastSeq <= watch.lastSeq) return false;
    watch.lastSeq = lastSeq;
    emit(sessionId, "rows", { lastSeq });
    return true;
  };

  const poll = async () => {
    for (const [sessionId, watch] of watches) {
      if (watch.polling) continue;
      watch.polling = true;
      try {
        if (noticeLastSeq(sessionId, await store.lastSeq(sessionId))) await onRowsChanged?.(sessionId);
      } catch (error) {
        if (!closed) log(`ctxwin serve: watching session '${sessionId}' failed:`, error);
      } finally {
        watch.polling = false;
      }
    }
  };

  const pollTimer = setInterval(() => {
    poll().catch((error: unknown) => log("ctxwin serve: polling sessions failed:", error));
  }, pollIntervalMs);
  pollTimer.unref();
  const pingTimer = setInterval(() => {
    for (const watch of watches.values()) for (const response of watch.subscribers) write(response, ": ping\n\n");
  }, pingIntervalMs);
  pingTimer.unref();

  return {
    emit,
    /** Tells subscribers that rows were stored (no-op when they already know this last seq). */
    noticeLastSeq,
    /** Opens an event stream on `response`; it ends when the client goes away or the hub closes. */
    subscribe({
      sessionId,
      response,
      lastSeq,
    }: {
      sessionId: string;
      response: ServerResponse;
      lastSeq: number;
    }): void {
      response.writeHead(200, {
        ...SECURITY_HEADERS,
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-store",
        Connection: "keep-alive",
        "X-Accel-Buffering": "no",
      });
      write(response, "retry: 2000\n: connected\n\n");
      let watch = watches.get(sessionId);
      if (watch === undefined) {
        watch = { subscribers: new Set(), lastSeq, polling: false };
        watches.set(sessionId, watch);
      }
      watch.subscribers.add(response);
      response.on("close", () => {
        const current = watches.get(sessionId);
        current?.subscribers.delete(response);
        if (current !== undefined && current.subscribers.size === 0) watches.delete(sessionId);
      });
    },
    subscriberCount(sessionId: string): number {
      return watches.get(sessionId)?.subscribers.size ?? 0;
    },
    /** Ends every stream and stops the timers. */
    close(): void {
      closed = true;
      clearInterval(pollTimer);
      clearInterval(pingTimer);
      for (const watch of watches.values()) for (const response of watch.subscribers) response.end();
      watches.clear();
    },
  };
}

export type EventHub = ReturnType<typeof createEventHub>;
