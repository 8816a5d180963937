/**
 * Pinning: a pinned memory file is always a hot-memory candidate, ahead of files ranked by use.
 * Pins are set by people and programs (not by the model) and persist in the hot-memory index.
 */
import { MemoryPathError } from "./errors.js";
import { resolveHostTarget } from "./host-paths.js";
import { readHotIndex, updateHotIndex } from "./hot-index.js";
import { indexKeyOf, resolveMemoryLayout, virtualPathOfIndexKey, type MemoryLocation } from "./layout.js";
import { isRefusal } from "./results.js";
import { parseVirtualPath } from "./virtual-path.js";

/**
 * Pins (or unpins) a memory file. Throws `MemoryPathError` for a refused path or a missing file.
 *
 * @example
 * await setMemoryPin({ root: ".ctxwin/memory", sessionId: "build-42", path: "/memories/project/conventions.md" });
 * await setMemoryPin({ sessionId: "build-42", path: "/memories/project/old.md", pinned: false });
 */
export async function setMemoryPin({
  path,
  pinned = true,
  ...location
}: MemoryLocation & { path: string; pinned?: boolean }): Promise<void> {
  const layout = resolveMemoryLayout(location);
  const parsed = parseVirtualPath(path);
  if (!parsed.ok) throw new MemoryPathError(parsed.code, parsed.message);
  if (parsed.path.segments.length === 0)
    throw new MemoryPathError("invalid_input", `${parsed.path.text} is a directory; only files can be pinned.`);
  const key = indexKeyOf(layout, parsed.path);
  if (pinned) {
    const target = resolveHostTarget({ layout, virtualPath: parsed.path, createScope: false });
    if (isRefusal(target)) throw new MemoryPathError(target.code, target.message);
    if (target.kind !== "file")
      throw new MemoryPathError(
        target.kind === "missing" ? "not_found" : "not_a_file",
        `${parsed.path.text} is not an existing file; only files can be pinned.`,
      );
  }
  await updateHotIndex({
    layout,
    change: (files) => {
      const entry = files.get(key) ?? {};
      if (pinned) files.set(key, { ...entry, pinned: true });
      else if (entry.access !== undefined) files.set(key, { access: entry.access });
      else files.delete(key);
    },
  });
}

/**
 * The pinned files of one session (its workspace, plus global and project), as virtual paths.
 *
 * @example
 * listMemoryPins({ sessionId: "build-42" }) // ["/memories/project/conventions.md"]
 */
export function listMemoryPins(location: MemoryLocation): string[] {
  const layout = resolveMemoryLayout(location);
  const pins: string[] = [];
  for (const [key, entry] of readHotIndex(layout).files) {
    const path = entry.pinned === true ? virtualPathOfIndexKey(layout, key) : undefined;
    if (path !== undefined) pins.push(path);
  }
  return pins.sort();
}
