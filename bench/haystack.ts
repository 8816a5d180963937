/**
 * The essays the store benchmarks cut their synthetic transcripts from (../shared/data/haystack,
 * or CTXWIN_BENCH_HAYSTACK), as sentences.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { splitSentences } from "../src/store/test-support/synthetic-transcript.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const haystackDirectory = process.env["CTXWIN_BENCH_HAYSTACK"] ?? path.resolve(repositoryRoot, "../shared/data/haystack");

export function loadSentences(): string[] {
  if (!existsSync(haystackDirectory)) throw new Error(`Essays not found in ${haystackDirectory}; set CTXWIN_BENCH_HAYSTACK.`);
  const text = readdirSync(haystackDirectory)
    .filter((file) => file.endsWith(".txt") && file !== "LICENSE.txt")
    .sort()
    .map((file) => readFileSync(path.join(haystackDirectory, file), "utf8"))
    .join(" ");
  return splitSentences(text);
}
