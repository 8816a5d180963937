/**
 * A tiny router: `METHOD /path/:param` patterns matched segment by segment. A path that is not
 * valid percent-encoding is a 400 (the request is malformed, whatever route it was meant for), an
 * unknown path a 404, a known path with another method a 405.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, badRequest } from "./api-error.js";

export interface RouteContext {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  params: Record<string, string>;
}

export type RouteHandler = (context: RouteContext) => Promise<void>;

export interface Route {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  handler: RouteHandler;
}

export interface Router {
  /** Finds the route of a request; throws a 404/405 ApiError when there is none. */
  match(method: string, pathname: string): { handler: RouteHandler; params: Record<string, string> };
}

/**
 * @example
 * const router = createRouter([{ method: "GET", path: "/api/sessions/:id", handler }]);
 * const { handler, params } = router.match("GET", "/api/sessions/s1"); // params.id === "s1"
 */
export function createRouter(routes: readonly Route[]): Router {
  const compiled = routes.map((route) => ({ ...route, segments: route.path.split("/").filter(Boolean) }));
  return {
    match(method, pathname) {
      const segments = pathname.split("/").filter(Boolean);
      if (!segments.every(decodes)) {
        throw badRequest(
          "The URL path holds malformed percent-encoding (a % not followed by two hex digits, or bytes that are not UTF-8).",
        );
      }
      let pathKnown = false;
      for (const route of compiled) {
        const params = matchSegments(route.segments, segments);
        if (params === undefined) continue;
        pathKnown = true;
        if (route.method === method) return { handler: route.handler, params };
      }
      if (pathKnown)
        throw new ApiError({
          status: 405,
          code: "method-not-allowed",
          message: `${method} is not allowed on ${pathname}.`,
        });
      throw new ApiError({ status: 404, code: "not-found", message: `No API route ${method} ${pathname}.` });
    },
  };
}

function matchSegments(pattern: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let index = 0; index < pattern.length; index += 1) {
    const expected = pattern[index] as string;
    const actual = segments[index] as string;
    if (expected.startsWith(":")) {
      params[expected.slice(1)] = decodeURIComponent(actual);
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}
