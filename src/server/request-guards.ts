/**
 * The checks every request passes before it is routed (ADR 0012): the Host header must name this
 * server (DNS rebinding), an Origin header must be this server's own origin (no cross-site calls,
 * no CORS), and every /api/* call must carry the per-start token.
 */
import { timingSafeEqual } from "node:crypto";
import { networkInterfaces, hostname } from "node:os";
import type { IncomingMessage } from "node:http";
import { ApiError } from "./api-error.js";

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** Whether a host to bind to is loopback only (the default). */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function isWildcardHost(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "[::]";
}

/** `[::1]` for IPv6 literals, as they appear in a Host header. */
function hostForHeader(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/**
 * The Host header values this server answers to: `host:port`, plus the loopback names when bound
 * to loopback, plus this machine's addresses and name when bound to every interface.
 *
 * @example allowedHostHeaders({ host: "127.0.0.1", port: 8080 }) // Set {"127.0.0.1:8080", "localhost:8080", "[::1]:8080"}
 */
export function allowedHostHeaders({ host, port }: { host: string; port: number }): Set<string> {
  const names = new Set<string>([hostForHeader(host).toLowerCase()]);
  if (isLoopbackHost(host) || isWildcardHost(host)) for (const name of LOOPBACK_NAMES) names.add(name);
  if (isWildcardHost(host)) {
    names.add(hostname().toLowerCase());
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) names.add(hostForHeader(address.address).toLowerCase());
    }
  }
  return new Set([...names].map((name) => `${name}:${port}`));
}

export interface RequestGuard {
  /** Throws a 403 ApiError for a foreign Host or Origin. */
  checkOrigin(request: IncomingMessage): void;
  /** Throws a 401 ApiError unless the request carries the token (Bearer header or `?token=`). */
  checkToken(request: IncomingMessage, url: URL): void;
}

/**
 * @example
 * const guard = createRequestGuard({ host: "127.0.0.1", port: 8080, token });
 * guard.checkOrigin(request);
 */
export function createRequestGuard({ host, port, token }: { host: string; port: number; token: string }): RequestGuard {
  const allowedHosts = allowedHostHeaders({ host, port });
  const expected = Buffer.from(token, "utf8");
  const matchesToken = (candidate: string | undefined) => {
    if (candidate === undefined) return false;
    const given = Buffer.from(candidate, "utf8");
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  return {
    checkOrigin(request) {
      const hostHeader = (request.headers.host ?? "").toLowerCase();
      if (!allowedHosts.has(hostHeader)) {
        throw new ApiError({
          status: 403,
          code: "forbidden",
          message: "The Host header does not name this server (DNS rebinding protection).",
        });
      }
      const origin = request.headers.origin;
      if (origin !== undefined && origin.toLowerCase() !== `http://${hostHeader}`) {
        throw new ApiError({ status: 403, code: "forbidden", message: "Requests from other origins are refused." });
      }
    },
    checkToken(request, url) {
      const authorization = request.headers.authorization;
      const bearer =
        authorization?.startsWith("Bearer ") === true ? authorization.slice("Bearer ".length).trim() : undefined;
      const query = url.searchParams.get("token") ?? undefined;
      if (!matchesToken(bearer) && !matchesToken(query)) {
        throw new ApiError({
          status: 401,
          code: "unauthorized",
          message: "Missing or wrong access token: open the URL `ctxwin serve` printed at start.",
        });
      }
    },
  };
}
