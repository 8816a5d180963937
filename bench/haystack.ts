/**
 * The essays the store benchmarks cut their synthetic transcripts from ($CTXWIN_TEST_DATA/haystack,
 * or CTXWIN_BENCH_HAYSTACK), as sentences.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { splitSentences } from "../src/store/test-support/synthetic-transcript.js";
import { testDataPath } from "../test/test-data.js";

const haystackDirectory = process.env["CTXWIN_BENCH_HAYSTACK"] ?? testDataPath("haystack");

export function loadSentences(): string[] {
  if (!existsSync(haystackDirectory))
    throw new Error(`Essays not found in ${haystackDirectory}; set CTXWIN_TEST_DATA (or CTXWIN_BENCH_HAYSTACK).`);
  const text = readdirSync(haystackDirectory)
    .filter((file) => file.endsWith(".txt") && file !== "LICENSE.txt")
    .sort()
    .map((file) => readFileSync(path.join(haystackDirectory, file), "utf8"))
    .join(" ");
  return splitSentences(text);
}
