/**
 * Reads a JSON lines file one parsed line at a time, with its 1-based line number; a line that
 * is not JSON is reported, not thrown, so the rest of the file still imports.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

export type JsonLine = { line: number; ok: true; value: unknown } | { line: number; ok: false; message: string };

/**
 * @example for await (const entry of jsonLines("/tmp/export.jsonl")) if (entry.ok) use(entry.value);
 */
export async function* jsonLines(file: string, { start = 0, firstLine = 1 }: { start?: number; firstLine?: number } = {}): AsyncGenerator<JsonLine> {
  const lines = createInterface({ input: createReadStream(file, { encoding: "utf8", start }), crlfDelay: Infinity });
  let line = firstLine - 1;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === "") continue;
    try {
      yield { line, ok: true, value: JSON.parse(text) as unknown };
    } catch (error) {
      yield { line, ok: false, message: `not JSON (${(error as Error).message})` };
    }
  }
}
