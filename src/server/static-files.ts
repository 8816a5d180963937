/**
 * The bundled front end (`dist/web/`, built by Vite) served without a token: it holds no data.
 * Only files inside the web root are served (no `..`, no NUL, no symlink out of the root), with
 * their content type and the safety headers; `/` is `index.html`. Without a build, `/` says how to
 * make one.
 */
import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { notFound } from "./api-error.js";
import { SECURITY_HEADERS } from "./http-io.js";
import { packageRoot } from "../package-root.js";

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
};

export const MISSING_BUILD_TEXT =
  "The ctxwin web UI is not built. Run `npm run build` in the ctxwin package, then start `ctxwin serve` again.\n";

/**
 * Where the built front end lives: the package's `dist/web/` (also when the server runs from the
 * sources, in tests).
 *
 * @example defaultWebRoot() // "/…/node_modules/ctxwin/dist/web/"
 */
export function defaultWebRoot(): string {
  return path.join(packageRoot(), "dist", "web") + path.sep;
}

/**
 * Serves one GET/HEAD request for a static file.
 *
 * @example await serveStaticFile({ webRoot, pathname: "/assets/app.js", response, head: false });
 */
export async function serveStaticFile({
  webRoot,
  pathname,
  response,
  head,
}: {
  webRoot: string;
  pathname: string;
  response: ServerResponse;
  head: boolean;
}): Promise<void> {
  const root = await realRoot(webRoot);
  if (root === undefined) {
    if (pathname !== "/" && pathname !== "/index.html") throw notFound(`No file ${pathname}: the web UI is not built.`);
    sendText({ response, status: 200, text: MISSING_BUILD_TEXT, head });
    return;
  }
  const relative = safeRelativePath(pathname);
  const file = await resolveInside(root, relative);
  if (file === undefined) throw notFound(`No file ${pathname}.`);
  const extension = path.extname(file.path).toLowerCase();
  const isIndex = path.basename(file.path) === "index.html";
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    "Content-Type": CONTENT_TYPES[extension] ?? "application/octet-stream",
    "Content-Length": file.size,
    "Cache-Control": isIndex ? "no-cache" : "public, max-age=3600",
  });
  if (head) {
    response.end();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const stream = createReadStream(file.path);
    stream.on("error", reject);
    response.on("close", resolve);
    stream.pipe(response);
  });
}

/** The path inside the web root a URL path names; traversal attempts are a 404 (never a hint). */
export function safeRelativePath(pathname: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    throw notFound(`No file ${pathname}.`);
  }
  if (decoded.includes("\0") || decoded.includes("\\")) throw notFound(`No file ${pathname}.`);
  const segments = decoded.split("/").filter((segment) => segment.length > 0);
  if (segments.some((segment) => segment === ".." || segment === "." || segment.startsWith(".")))
    throw notFound(`No file ${pathname}.`);
  return segments.length === 0 ? "index.html" : segments.join("/");
}

async function realRoot(webRoot: string): Promise<string | undefined> {
  try {
    const resolved = await realpath(webRoot);
    return (await stat(resolved)).isDirectory() ? resolved : undefined;
  } catch {
    return undefined;
  }
}

/** A regular file at `relative` whose real path stays inside the root, else `undefined`. */
async function resolveInside(root: string, relative: string): Promise<{ path: string; size: number } | undefined> {
  const candidate = path.resolve(root, relative);
  if (!isInside(root, candidate)) return undefined;
  try {
    const real = await realpath(candidate);
    if (!isInside(root, real)) return undefined;
    const info = await stat(real);
    if (!info.isFile()) return undefined;
    return { path: real, size: info.size };
  } catch {
    return undefined;
  }
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative.length > 0 && !relative.startsWith("..") && !path.isAbsolute(relative);
}

function sendText({
  response,
  status,
  text,
  head,
}: {
  response: ServerResponse;
  status: number;
  text: string;
  head: boolean;
}): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-cache",
  });
  response.end(head ? undefined : text);
}
