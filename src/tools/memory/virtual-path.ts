/**
 * The virtual paths the model uses: `/memories`, `/memories/<scope>` and files below a scope.
 * Parsing is pure string work and refuses everything that is not a plain path inside the tree:
 * `..` and `.` segments, host paths, Windows separators and drive letters, NUL and other control
 * characters, hidden names (reserved for ctxwin's own temporary and lock files), overlong names.
 */

/** Root of the virtual tree the model sees. */
export const MEMORY_VIRTUAL_ROOT = "/memories";
/**
 * The folders directly below `/memories`: shared by all projects, by this project, by this session.
 *
 * @example
 * MEMORY_SCOPES.map((scope) => `/memories/${scope}`)
 */
export const MEMORY_SCOPES = ["global", "project", "workspace"] as const;
export type MemoryScope = (typeof MEMORY_SCOPES)[number];

/** A checked path inside the virtual tree. */
export interface VirtualPath {
  /** Canonical text, without a trailing slash: `/memories/project/notes.md`. */
  text: string;
  /** `undefined` for `/memories` itself. */
  scope: MemoryScope | undefined;
  /** Names below the scope directory; empty for `/memories` and for a scope root. */
  segments: string[];
}

export type PathRefusalCode = "invalid_path" | "outside_memory";

export type ParsedVirtualPath = { ok: true; path: VirtualPath } | { ok: false; code: PathRefusalCode; message: string };

export const MAX_PATH_CHARACTERS = 512;
export const MAX_NAME_BYTES = 255;
export const MAX_PATH_DEPTH = 16;

const EXAMPLE = "/memories/project/notes.md";

/**
 * Checks a path given by the model.
 *
 * @example
 * parseVirtualPath("/memories/project/notes.md") // { ok: true, path: { scope: "project", segments: ["notes.md"], ... } }
 * parseVirtualPath("/memories/../etc/passwd")    // { ok: false, code: "outside_memory", ... }
 */
export function parseVirtualPath(input: unknown, name = "path"): ParsedVirtualPath {
  if (typeof input !== "string" || input.length === 0)
    return invalid(`${name} must be a non-empty string such as ${EXAMPLE}.`);
  const shown = JSON.stringify(input.length > 80 ? `${input.slice(0, 80)}…` : input);
  if (input.includes("\u0000")) return invalid(`${name} ${shown} contains a NUL byte; refused.`);
  if (input.includes("\\"))
    return outside(`${name} ${shown} contains a backslash; Windows separators are refused, use '/'.`);
  if (/[\u0001-\u001f\u007f]/.test(input)) return invalid(`${name} ${shown} contains control characters; refused.`);
  if (input.length > MAX_PATH_CHARACTERS) return invalid(`${name} is longer than ${MAX_PATH_CHARACTERS} characters.`);
  if (/^[A-Za-z]:/.test(input))
    return outside(
      `${name} ${shown} looks like a Windows drive path; only paths under ${MEMORY_VIRTUAL_ROOT} are allowed.`,
    );
  if (input.includes(":")) return invalid(`${name} ${shown} contains ':'; refused.`);
  if (input !== MEMORY_VIRTUAL_ROOT && !input.startsWith(`${MEMORY_VIRTUAL_ROOT}/`)) {
    const kind = input.startsWith("/")
      ? "host paths are outside the memory directory"
      : "relative paths are not accepted";
    return outside(`${name} ${shown} is not under ${MEMORY_VIRTUAL_ROOT}: ${kind}. Use a path such as ${EXAMPLE}.`);
  }
  const names = input.slice(MEMORY_VIRTUAL_ROOT.length + 1).split("/");
  if (names.length > 0 && names[names.length - 1] === "") names.pop(); // one trailing slash is fine
  for (const segment of names) {
    if (segment === "..") return outside(`${name} ${shown} contains '..'; paths may not leave ${MEMORY_VIRTUAL_ROOT}.`);
    if (segment === ".") return invalid(`${name} ${shown} contains a '.' segment; write the path without it.`);
    if (segment === "") return invalid(`${name} ${shown} contains an empty segment ('//').`);
    if (segment.startsWith("."))
      return invalid(`${name} ${shown} has a name starting with '.'; hidden names are reserved.`);
    if (new TextEncoder().encode(segment).length > MAX_NAME_BYTES)
      return invalid(`${name} has a name longer than ${MAX_NAME_BYTES} bytes.`);
  }
  const [scope, ...segments] = names;
  if (scope === undefined) return { ok: true, path: { text: MEMORY_VIRTUAL_ROOT, scope: undefined, segments: [] } };
  if (!isScope(scope)) {
    return invalid(
      `${name} ${shown} is in an unknown scope '${scope}'; use ${MEMORY_SCOPES.map((item) => `${MEMORY_VIRTUAL_ROOT}/${item}`).join(", ")}.`,
    );
  }
  if (segments.length > MAX_PATH_DEPTH)
    return invalid(`${name} is nested deeper than ${MAX_PATH_DEPTH} levels below its scope.`);
  return { ok: true, path: { text: [MEMORY_VIRTUAL_ROOT, scope, ...segments].join("/"), scope, segments } };
}

/**
 * The virtual path of `segments` below `scope`.
 *
 * @example
 * virtualPathText("workspace", ["context-notes.md"]) // "/memories/workspace/context-notes.md"
 */
export function virtualPathText(scope: MemoryScope | undefined, segments: readonly string[] = []): string {
  return scope === undefined ? MEMORY_VIRTUAL_ROOT : [MEMORY_VIRTUAL_ROOT, scope, ...segments].join("/");
}

function isScope(value: string): value is MemoryScope {
  return (MEMORY_SCOPES as readonly string[]).includes(value);
}

function invalid(message: string): ParsedVirtualPath {
  return { ok: false, code: "invalid_path", message };
}

function outside(message: string): ParsedVirtualPath {
  return { ok: false, code: "outside_memory", message };
}
