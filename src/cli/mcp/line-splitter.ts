/**
 * Splits a byte stream into newline-delimited lines, holding at most `maxLineBytes` of one line:
 * a longer line is not kept but counted, and scanned for its top-level JSON-RPC `id` on the way,
 * so that it can be refused with that id when its newline arrives. What follows it is read as usual.
 */
import { createTopLevelIdScanner, type TopLevelIdScanner } from "./top-level-id.js";

const NEWLINE = 0x0a;

/** A line over the limit: how long it was, and its request id when one could be read. */
export interface OversizedLine {
  bytes: number;
  id: string | number | undefined;
}

export interface LineSplitterOptions {
  maxLineBytes: number;
  /** A complete line within the limit, without its newline (nor a carriage return before it). */
  onLine: (line: string) => void;
  onOversizedLine: (line: OversizedLine) => void;
}

export interface LineSplitter {
  push: (chunk: Buffer) => void;
}

/**
 * @example
 * const splitter = createLineSplitter({ maxLineBytes: 1024, onLine: console.log, onOversizedLine: console.warn });
 * splitter.push(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n'));
 */
export function createLineSplitter({ maxLineBytes, onLine, onOversizedLine }: LineSplitterOptions): LineSplitter {
  let parts: Buffer[] = [];
  let size = 0;
  let oversized: { bytes: number; scanner: TopLevelIdScanner } | undefined;

  const take = (piece: Buffer) => {
    if (piece.length === 0) return;
    if (oversized !== undefined) {
      oversized.scanner.feed(piece);
      oversized.bytes += piece.length;
      return;
    }
    if (size + piece.length <= maxLineBytes) {
      parts.push(piece);
      size += piece.length;
      return;
    }
    const scanner = createTopLevelIdScanner();
    for (const part of [...parts, piece]) scanner.feed(part);
    oversized = { bytes: size + piece.length, scanner };
    parts = [];
    size = 0;
  };

  const endLine = () => {
    if (oversized !== undefined) {
      const { bytes, scanner } = oversized;
      oversized = undefined;
      onOversizedLine({ bytes, id: scanner.id() });
      return;
    }
    const line = Buffer.concat(parts, size).toString("utf8");
    parts = [];
    size = 0;
    onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  };

  return {
    push: (chunk) => {
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(NEWLINE, start);
        take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
        if (newline === -1) return;
        endLine();
        start = newline + 1;
      }
    },
  };
}
