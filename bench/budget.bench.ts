/**
 * Budget engine benchmarks (issue 4), run with `npm run bench -- budget`:
 * - accuracy: ctxwin's count for OpenAI models (o200k_base via gpt-4.1, cl100k_base via gpt-4) on
 *   the essays in $CTXWIN_TEST_DATA/haystack and on this repository's TypeScript, against the
 *   reference tokenizer (gpt-tokenizer's plain `encode`, special tokens as text), and against the
 *   token lists tiktoken itself produced (gpt-tokenizer's data/TestPlans.txt). Goal: exact.
 *   Next to it, the error of the naive `characters / 3.5` estimate on the same text;
 * - counting throughput in tokens per second;
 * - the cost of one step's budget check (estimate of the request with the previous estimate,
 *   plus `evaluateStepBudget`) on a 100,000-row window vs a 100-row window. Goal: ratio ≤ 1.2.
 */
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { encode as encodeCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { countTokens as countO200kPlain, encode as encodeO200k } from "gpt-tokenizer/encoding/o200k_base";
import {
  countEncodedTokens,
  countRowTokens,
  countTokens,
  estimateRequestTokens,
  evaluateStepBudget,
  type CountableMessage,
  type RequestEstimate,
} from "../src/core/budget/index.js";
import { formatMs, formatRatio, goal, time } from "./measure.js";
import { testDataPath } from "../test/test-data.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const haystackDirectory = process.env["CTXWIN_BENCH_HAYSTACK"] ?? testDataPath("haystack");
const asText = { disallowedSpecial: new Set<string>() };

interface Document {
  name: string;
  text: string;
}

function haystack(): Document[] {
  return readdirSync(haystackDirectory)
    .filter((file) => file.endsWith(".txt"))
    .sort()
    .map((file) => ({ name: file, text: readFileSync(path.join(haystackDirectory, file), "utf8") }));
}

function repositoryTypeScript(): Document[] {
  const documents: Document[] = [];
  for (const folder of ["src", "bench"]) {
    for (const entry of readdirSync(path.join(repositoryRoot, folder), { recursive: true, encoding: "utf8" })) {
      if (!entry.endsWith(".ts")) continue;
      documents.push({
        name: `${folder}/${entry}`,
        text: readFileSync(path.join(repositoryRoot, folder, entry), "utf8"),
      });
    }
  }
  return documents.sort((left, right) => left.name.localeCompare(right.name));
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

function accuracy(label: string, documents: Document[]): void {
  const characters = documents.reduce((sum, document) => sum + document.text.length, 0);
  for (const [model, encode] of [
    ["gpt-4.1 (o200k_base)", encodeO200k],
    ["gpt-4 (cl100k_base)", encodeCl100k],
  ] as const) {
    let exactFiles = 0;
    let difference = 0;
    let reference = 0;
    for (const document of documents) {
      const expected = encode(document.text, asText).length;
      const counted = countTokens(document.text, { model: model.split(" ")[0] });
      reference += expected;
      difference += Math.abs(counted - expected);
      if (counted === expected) exactFiles += 1;
    }
    console.log(
      `${label}, ${model}: ${documents.length} files, ${characters.toLocaleString("en-US")} chars, ${reference.toLocaleString("en-US")} tokens`,
    );
    goal(`${label}, ${model}: files counted exactly`, exactFiles, ">=", documents.length);
    goal(`${label}, ${model}: total absolute difference in tokens`, difference, "<=", 0);
  }
  // The naive estimate, against the o200k_base reference.
  const errors = documents.map((document) => {
    const expected = encodeO200k(document.text, asText).length;
    return { name: document.name, error: (document.text.length / 3.5 - expected) / Math.max(1, expected) };
  });
  const totalTokens = documents.reduce((sum, document) => sum + encodeO200k(document.text, asText).length, 0);
  const totalError = (characters / 3.5 - totalTokens) / totalTokens;
  const meanAbsolute = errors.reduce((sum, entry) => sum + Math.abs(entry.error), 0) / errors.length;
  const lowest = errors.reduce((left, right) => (right.error < left.error ? right : left));
  const highest = errors.reduce((left, right) => (right.error > left.error ? right : left));
  const signed = (value: number) => `${value >= 0 ? "+" : ""}${percent(value)}`;
  console.log(
    `${label}: naive chars/3.5 vs o200k_base: total ${signed(totalError)}, mean |error| per file ${percent(meanAbsolute)}, ` +
      `per file from ${signed(lowest.error)} (${lowest.name}) to ${signed(highest.error)} (${highest.name})`,
  );
}

function tiktokenPlans(): void {
  const require = createRequire(import.meta.url);
  const plans = readFileSync(
    path.join(path.dirname(require.resolve("gpt-tokenizer/package.json")), "data", "TestPlans.txt"),
    "utf8",
  );
  let total = 0;
  let exact = 0;
  for (const block of plans.split("\n\n")) {
    const match = /^EncodingName: (\S+)\nSample: ([\s\S]*)\nEncoded: (\[.*\])$/.exec(block.trim());
    if (!match) continue;
    const encoding = match[1];
    if (encoding !== "o200k_base" && encoding !== "cl100k_base") continue;
    total += 1;
    if (countEncodedTokens(match[2] ?? "", { encoding }) === (JSON.parse(match[3] ?? "[]") as number[]).length)
      exact += 1;
  }
  goal("tiktoken's own test plans (o200k_base + cl100k_base samples) counted exactly", exact, ">=", total);
}

async function throughput(documents: Document[]): Promise<void> {
  const text = documents.map((document) => document.text).join("\n");
  const perSecond = (tokens: number, milliseconds: number) =>
    `${Math.round((tokens / milliseconds) * 1000).toLocaleString("en-US")} tokens/s`;
  for (const model of ["gpt-4.1", "gpt-4", "anthropic:claude-sonnet-4-5"]) {
    const tokens = countTokens(text, { model });
    const timing = await time(() => countTokens(text, { model }), { iterations: 9, warmup: 2 });
    console.log(
      `throughput, ctxwin countTokens for ${model}: ${perSecond(tokens, timing.p50)} (${tokens.toLocaleString("en-US")} tokens in ${formatMs(timing.p50)})`,
    );
  }
  const tokens = countO200kPlain(text, asText);
  const plain = await time(() => countO200kPlain(text, asText), { iterations: 9, warmup: 2 });
  console.log(`throughput, gpt-tokenizer's own countTokens (o200k_base, no guard): ${perSecond(tokens, plain.p50)}`);
  const pathological = "a".repeat(100_000);
  const guardedRun = await time(() => countEncodedTokens(pathological), { iterations: 3, warmup: 1 });
  console.log(
    `a 100,000-character run of one letter: ${formatMs(guardedRun.p50)} (plain byte-pair encoding of it takes seconds)`,
  );
}

function sentences(documents: Document[]): string[] {
  return documents
    .flatMap((document) => document.text.split(/(?<=[.!?])\s+/))
    .map((sentence) => sentence.replace(/\s+/g, " ").trim())
    .filter((sentence) => sentence.length >= 40);
}

function buildWindow(size: number, pool: string[]): CountableMessage[] {
  return Array.from({ length: size }, (_, index) => {
    const row: CountableMessage = {
      seq: index + 1,
      id: `row-${index + 1}`,
      role: index % 2 === 0 ? "user" : "assistant",
      parts: [{ type: "text", text: `${pool[index % pool.length]} ${pool[(index * 7 + 3) % pool.length]}` }],
    };
    return { ...row, tokens: countRowTokens(row) };
  });
}

async function stepCheck(pool: string[]): Promise<void> {
  const model = "anthropic:claude-sonnet-4-5";
  const system = pool.slice(0, 40).join(" ");
  const tools = [
    {
      name: "read_file",
      description: "Read a file of the workspace.",
      parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
    {
      name: "session_history",
      description: "Page back through earlier windows.",
      parameters: { type: "object", properties: { action: { type: "string" } } },
    },
  ];
  let stepNumber = 0;
  const newRows = (seq: number): CountableMessage[] => {
    stepNumber += 1;
    const body = pool
      .slice((stepNumber * 13) % (pool.length - 20), ((stepNumber * 13) % (pool.length - 20)) + 12)
      .join(" ");
    return [
      {
        seq,
        id: `row-${seq}`,
        role: "assistant",
        parts: [
          {
            type: "tool-read_file",
            toolCallId: `c${stepNumber}`,
            state: "output-available",
            input: { path: `notes/${stepNumber}.md` },
            output: body,
          },
        ],
      },
      {
        seq: seq + 1,
        id: `row-${seq + 1}`,
        role: "assistant",
        parts: [{ type: "text", text: `Step ${stepNumber}: read the file; continuing.` }],
      },
    ];
  };
  const results: Record<number, number> = {};
  for (const size of [100, 100_000]) {
    const window = buildWindow(size, pool);
    const previous: RequestEstimate = estimateRequestTokens({ model, system, messages: window, tools });
    const check = () => {
      const added = newRows(size + 1);
      window.push(...added);
      const estimate = estimateRequestTokens({ model, system, messages: window, tools, previous });
      window.length = size;
      return evaluateStepBudget({
        moment: "after-step",
        limit: 200_000,
        contextTokens: previous.tokens,
        pendingToolResultTokens: estimate.tokens - previous.tokens,
      });
    };
    const timing = await time(check, { iterations: 400, warmup: 50 });
    results[size] = timing.p50;
    console.log(
      `step check, ${size.toLocaleString("en-US")}-row window: p50 ${formatMs(timing.p50)}, p95 ${formatMs(timing.p95)}`,
    );
    if (size === 100_000) {
      const cachedOnly = await time(() => estimateRequestTokens({ model, system, messages: window, tools }), {
        iterations: 10,
        warmup: 2,
      });
      console.log(
        `  for comparison, re-estimating the whole 100,000-row window from cached row counts: p50 ${formatMs(cachedOnly.p50)}`,
      );
      const uncached = window.map(({ tokens: _tokens, ...row }) => row);
      const tokenized = await time(() => estimateRequestTokens({ model, system, messages: uncached, tools }), {
        iterations: 1,
        warmup: 0,
      });
      console.log(`  and re-tokenizing it with no cache: ${formatMs(tokenized.p50)}`);
    }
  }
  goal(
    "step check cost, 100,000-row window / 100-row window",
    (results[100_000] ?? Number.NaN) / (results[100] ?? Number.NaN),
    "<=",
    1.2,
    formatRatio,
  );
}

export async function run(): Promise<void> {
  const essays = haystack();
  const code = repositoryTypeScript();
  accuracy("haystack essays", essays);
  accuracy("repository TypeScript", code);
  tiktokenPlans();
  await throughput(essays);
  await stepCheck(sentences(essays));
}
