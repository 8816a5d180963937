/**
 * Subscribes to a session's server-sent events for as long as the session view is open. The
 * handler may change on every render; the connection does not.
 */
import { useEffect, useRef, useState } from "react";
import type { SessionEventMap, SessionEventName } from "./api/types";

export type SessionEvent = {
  [Name in SessionEventName]: { name: Name; data: SessionEventMap[Name] };
}[SessionEventName];

const EVENT_NAMES: SessionEventName[] = [
  "turn-start",
  "text-delta",
  "step-end",
  "usage",
  "budget-warning",
  "rollover",
  "blocked",
  "error",
  "retry",
  "turn-end",
  "rows",
];

/**
 * @example
 * const connected = useSessionEvents({ url: api.eventsUrl(id), onEvent: (event) => console.log(event.name) });
 */
export function useSessionEvents({ url, onEvent }: { url: string; onEvent: (event: SessionEvent) => void }): boolean {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    const source = new EventSource(url);
    const listeners = EVENT_NAMES.map((name) => {
      const listener = (event: Event) => {
        // The stream's own `error` event has data; a connection failure is a plain Event without it.
        if (!(event instanceof MessageEvent) || typeof event.data !== "string") {
          if (name === "error") setConnected(false);
          return;
        }
        let data: unknown;
        try {
          data = JSON.parse(event.data);
        } catch {
          return;
        }
        handler.current({ name, data } as SessionEvent);
      };
      source.addEventListener(name, listener);
      return { name, listener };
    });
    const opened = () => setConnected(true);
    source.addEventListener("open", opened);
    return () => {
      for (const { name, listener } of listeners) source.removeEventListener(name, listener);
      source.removeEventListener("open", opened);
      source.close();
      setConnected(false);
    };
  }, [url]);
  return connected;
}
