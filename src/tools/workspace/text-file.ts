/**
 * Low-level file access shared by the workspace tools: opening a regular file without following
 * a link or blocking on a FIFO, reading it in chunks, and telling binary files from text.
 */
import fs from "node:fs";
import { BINARY_SNIFF_BYTES } from "./limits.js";
import { refusal, formatSize, type Refusal } from "./results.js";

/** Bytes read per system call. */
export const CHUNK_BYTES = 64 * 1024;

export interface OpenFile {
  descriptor: number;
  stats: fs.Stats;
}

/**
 * Opens a resolved path for reading: regular files only (a FIFO or device is refused without
 * blocking), at most `maxBytes`. The caller closes the descriptor.
 *
 * @example
 * const opened = openRegularFile({ file: resolved.target, shown: "a.txt", maxBytes: 1e6, tooLargeHint: "use search_text" });
 */
export function openRegularFile({
  file,
  shown,
  maxBytes,
  tooLargeHint,
}: {
  file: string;
  shown: string;
  maxBytes: number;
  tooLargeHint: string;
}): OpenFile | Refusal {
  const flags = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
  const descriptor = fs.openSync(file, flags);
  const stats = fs.fstatSync(descriptor);
  if (stats.isDirectory())
    return closeWith(descriptor, refusal(`${shown} is a folder, not a file; use list_files with path "${shown}".`));
  if (!stats.isFile())
    return closeWith(
      descriptor,
      refusal(`${shown} is not a regular file (a device, socket or pipe); it cannot be read.`),
    );
  if (stats.size > maxBytes)
    return closeWith(
      descriptor,
      refusal(`${shown} is ${formatSize(stats.size)}, over the ${formatSize(maxBytes)} limit; ${tooLargeHint}`),
    );
  return { descriptor, stats };
}

/**
 * Calls `onChunk` with successive chunks of an open file until the end or until it returns `false`.
 *
 * @example
 * forEachChunk({ descriptor, onChunk: (chunk) => { total += chunk.length; return true; } });
 */
export function forEachChunk({
  descriptor,
  onChunk,
  chunkBytes = CHUNK_BYTES,
}: {
  descriptor: number;
  onChunk: (chunk: Buffer) => boolean;
  chunkBytes?: number;
}): void {
  const buffer = Buffer.alloc(chunkBytes);
  let position = 0;
  for (;;) {
    const read = fs.readSync(descriptor, buffer, 0, buffer.length, position);
    if (read === 0) return;
    position += read;
    if (!onChunk(buffer.subarray(0, read))) return;
  }
}

/**
 * Whether the start of a file looks binary: a NUL byte in its first 8 KB.
 *
 * @example
 * looksBinary(Buffer.from("text")) // false
 */
export function looksBinary(start: Uint8Array): boolean {
  return start.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/**
 * Reads a whole regular file (already size-checked) into memory.
 *
 * @example
 * const bytes = readAll({ descriptor, size: stats.size });
 */
export function readAll({ descriptor, size }: { descriptor: number; size: number }): Buffer {
  const buffer = Buffer.alloc(size);
  let offset = 0;
  while (offset < size) {
    const read = fs.readSync(descriptor, buffer, offset, size - offset, offset);
    if (read === 0) break;
    offset += read;
  }
  return buffer.subarray(0, offset);
}

function closeWith(descriptor: number, value: Refusal): Refusal {
  fs.closeSync(descriptor);
  return value;
}
