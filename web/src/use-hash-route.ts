/**
 * Routing by the address's hash (`#/` for the sessions list, `#/session/<id>` for one session,
 * `#/eval` for a loaded eval run), so the static server needs no fallback routes and the token
 * never appears in paths.
 */
import { useEffect, useState } from "react";

export type Route = { page: "sessions" } | { page: "session"; sessionId: string } | { page: "eval" };

/** Where the Eval view is. */
export const EVAL_HREF = "#/eval";

/** @example parseRoute("#/session/abc") // { page: "session", sessionId: "abc" } */
export function parseRoute(hash: string): Route {
  if (hash === EVAL_HREF) return { page: "eval" };
  const match = /^#\/session\/(.+)$/.exec(hash);
  if (match?.[1] !== undefined) {
    try {
      return { page: "session", sessionId: decodeURIComponent(match[1]) };
    } catch {
      return { page: "sessions" };
    }
  }
  return { page: "sessions" };
}

/** @example sessionHref("abc") // "#/session/abc" */
export function sessionHref(sessionId: string): string {
  return `#/session/${encodeURIComponent(sessionId)}`;
}

/** The current route, updated when the hash changes. */
export function useHashRoute(): Route {
  const [route, setRoute] = useState<Route>(() => parseRoute(window.location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener("hashchange", update);
    return () => window.removeEventListener("hashchange", update);
  }, []);
  return route;
}
