/**
 * File access for the `<hot_memories>` block: reads the index and the candidate files of one
 * session (pinned or accessed files, plus the notes file), with the same containment and text
 * checks as the memory tool, and hands them to the pure selection in `core/hot-memories`.
 * Nothing is cached: a change made through the tool shows in the very next render.
 */
import { CONTEXT_NOTES_PATH, type HotMemoryLimits } from "../../core/hot-memories/limits.js";
import {
  selectHotMemories,
  type HotMemoryCandidate,
  type HotMemorySelection,
} from "../../core/hot-memories/select-hot-memories.js";
import { resolveHostTarget } from "./host-paths.js";
import { readHotIndex } from "./hot-index.js";
import { resolveMemoryLayout, virtualPathOfIndexKey, type MemoryLayout, type MemoryLocation } from "./layout.js";
import { isRefusal } from "./results.js";
import { MAX_MEMORY_FILE_BYTES, readTextFile } from "./text-files.js";
import { parseVirtualPath } from "./virtual-path.js";

export interface UnreadableMemory {
  path: string;
  reason: string;
}

export interface HotMemoryCandidates {
  candidates: HotMemoryCandidate[];
  /** Indexed files that exist but could not be used (binary, too large, link out of scope, ...). */
  unreadable: UnreadableMemory[];
  /** Set when the index itself could not be read. */
  indexProblem?: string;
}

/**
 * Loads the candidate files of one session's hot memories.
 *
 * @example
 * const { candidates } = loadHotMemoryCandidates({ root: ".ctxwin/memory", sessionId: "build-42" });
 */
export function loadHotMemoryCandidates({
  maxFileBytes = MAX_MEMORY_FILE_BYTES,
  ...location
}: MemoryLocation & { maxFileBytes?: number }): HotMemoryCandidates {
  const layout = resolveMemoryLayout(location);
  const index = readHotIndex(layout);
  const wanted = new Map<string, { pinned: boolean; access: HotMemoryCandidate["access"] }>();
  wanted.set(CONTEXT_NOTES_PATH, { pinned: false, access: undefined });
  for (const [key, entry] of index.files) {
    const path = virtualPathOfIndexKey(layout, key);
    if (path === undefined) continue;
    wanted.set(path, { pinned: entry.pinned === true, access: entry.access });
  }
  const candidates: HotMemoryCandidate[] = [];
  const unreadable: UnreadableMemory[] = [];
  for (const [path, { pinned, access }] of wanted) {
    try {
      const loaded = loadOne(layout, path, maxFileBytes);
      if (loaded === undefined) continue;
      if (typeof loaded === "string") unreadable.push({ path, reason: loaded });
      else candidates.push({ ...loaded, pinned, ...(access === undefined ? {} : { access }) });
    } catch (error) {
      // One broken file (permissions, a race with a delete) must not take the whole block down.
      unreadable.push({ path, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { candidates, unreadable, ...(index.problem === undefined ? {} : { indexProblem: index.problem }) };
}

/** The file at `path` as a candidate, `undefined` when it does not exist, or why it cannot be used. */
function loadOne(
  layout: MemoryLayout,
  path: string,
  maxFileBytes: number,
): { path: string; content: string } | string | undefined {
  const parsed = parseVirtualPath(path);
  if (!parsed.ok) return parsed.message;
  const target = resolveHostTarget({ layout, virtualPath: parsed.path, createScope: false });
  if (isRefusal(target)) return target.message;
  if (target.kind === "missing") return undefined;
  if (target.kind !== "file") return `${path} is not a regular file.`;
  const file = readTextFile({ file: target.contentPath, shownPath: path, maxBytes: maxFileBytes });
  if (isRefusal(file)) return file.message;
  return { path: parsed.path.text, content: file.text };
}

export interface RenderHotMemoriesOptions extends MemoryLocation {
  now?: () => Date;
  /** Token counter for the budget; default a conservative estimate (characters / 3). */
  countTokens?: (text: string) => number;
  limits?: Partial<HotMemoryLimits>;
}

/**
 * Reads one session's memory and renders its `<hot_memories>` block (`text` is `""` when empty).
 *
 * @example
 * const { text } = renderHotMemories({ root: ".ctxwin/memory", sessionId: "build-42" });
 * const system = text === "" ? basePrompt : `${basePrompt}\n\n${text}`;
 */
export function renderHotMemories({
  now = () => new Date(),
  countTokens,
  limits,
  ...location
}: RenderHotMemoriesOptions): HotMemorySelection & Omit<HotMemoryCandidates, "candidates"> {
  const { candidates, ...problems } = loadHotMemoryCandidates(location);
  const selection = selectHotMemories({
    candidates,
    now: now().getTime(),
    ...(countTokens === undefined ? {} : { countTokens }),
    ...(limits === undefined ? {} : { limits }),
  });
  return { ...selection, ...problems };
}
