import fc from "fast-check";
import { encode as encodeCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { encode as encodeO200k } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import {
  LONG_RUN_CHARACTERS,
  PROVIDER_ESTIMATE_FACTORS,
  UNKNOWN_PROVIDER_ESTIMATE_FACTOR,
  countEncodedTokens,
  countTokens,
  tokenizerProfileFor,
} from "./token-count.js";

const asText = { disallowedSpecial: new Set<string>() };

// Expected counts from tiktoken's own test plans (shipped with gpt-tokenizer as data/TestPlans.txt).
const tiktokenSamples: [encoding: "o200k_base" | "cl100k_base", sample: string, tokens: number][] = [
  ["o200k_base", "Hello, World! How are you today? 🌍", 11],
  ["o200k_base", "こんにちは、世界！お元気ですか？", 10],
  ["o200k_base", "Привет, мир! Как дела?", 8],
  ["o200k_base", "A ∀ x (P(x) → Q(x)) ∧ (∃x P(x)) → ∃x Q(x)", 28],
  ["o200k_base", "你今天遇到什么有趣的事情了吗？🇨🇳", 15],
  ["o200k_base", "🍏🍎🍐🍊🍋🍌🍉🍇🍓🍈🍒🍑", 24],
  ["cl100k_base", "Hello, World! How are you today? 🌍", 12],
  ["cl100k_base", "こんにちは、世界！お元気ですか？", 12],
  ["cl100k_base", "The quick brown fox jumps over 13 lazy dogs. 😺", 13],
  ["cl100k_base", "გამარჯობა! როგორ ხართ დღეს? 🇬🇪", 55],
];

const typescriptSample = `export function hardCeilingFor({ limit, outputReserve = 8192 }: { limit: number; outputReserve?: number }): number {
  return limit - Math.min(outputReserve, Math.floor(0.25 * limit)); // <|endoftext|> stays text
}\n`;

describe("countEncodedTokens", () => {
  it.each(tiktokenSamples)("%s counts %j like tiktoken", (encoding, sample, tokens) => {
    expect(countEncodedTokens(sample, { encoding })).toBe(tokens);
  });

  it("counts special-token strings as ordinary text instead of throwing", () => {
    for (const special of ["<|endoftext|>", "<|im_start|>user\nhi<|im_end|>", "<|endofprompt|>", "<|fim_prefix|>"]) {
      expect(countEncodedTokens(special)).toBe(encodeO200k(special, asText).length);
      expect(countEncodedTokens(special, { encoding: "cl100k_base" })).toBe(encodeCl100k(special, asText).length);
    }
    expect(countEncodedTokens("<|endoftext|>")).toBe(7);
  });

  it("is exact on code and prose", () => {
    const text = typescriptSample.repeat(20) + "It was the best of times, it was the worst of times.\n".repeat(40);
    expect(countEncodedTokens(text)).toBe(encodeO200k(text, asText).length);
    expect(countEncodedTokens(text, { encoding: "cl100k_base" })).toBe(encodeCl100k(text, asText).length);
  });

  it("matches the reference on arbitrary text without over-long runs", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (text) => {
        expect(countEncodedTokens(text)).toBe(encodeO200k(text, asText).length);
      }),
      { numRuns: 300 },
    );
  });

  it("counts over-long runs in chunks, close to the reference", () => {
    for (const run of [
      "a".repeat(3_000),
      "=".repeat(3_000),
      " ".repeat(3_000),
      "ab".repeat(1_500),
      "x".repeat(LONG_RUN_CHARACTERS),
    ]) {
      const text = `start ${run} end`;
      const exact = encodeO200k(text, asText).length;
      const chunks = Math.ceil(run.length / LONG_RUN_CHARACTERS);
      expect(Math.abs(countEncodedTokens(text) - exact), JSON.stringify(run.slice(0, 3))).toBeLessThanOrEqual(
        chunks + 2,
      );
    }
  });

  it("finishes on a 400,000-character run that plain byte-pair encoding would take minutes on", () => {
    expect(countEncodedTokens("a".repeat(400_000))).toBe(50_000);
  });

  it("leaves ordinary long lines (URLs, minified code) exact", () => {
    const url = `https://example.com/${"segment/".repeat(60)}?q=1`;
    expect(url.length).toBeGreaterThan(LONG_RUN_CHARACTERS);
    expect(countEncodedTokens(url)).toBe(encodeO200k(url, asText).length);
  });

  it("counts a run of five million letters, symbols or marks in a text that is not Latin-1, chunk by chunk", () => {
    const chunks = (run: string) => {
      const full = Math.floor(run.length / LONG_RUN_CHARACTERS);
      const rest = run.length - full * LONG_RUN_CHARACTERS;
      return (
        full * countEncodedTokens(run.slice(0, LONG_RUN_CHARACTERS)) +
        (rest === 0 ? 0 : countEncodedTokens(run.slice(0, rest)))
      );
    };
    const letters = "x".repeat(5_000_000);
    expect(countEncodedTokens(`→ ${letters}`)).toBe(countEncodedTokens("→ ") + chunks(letters));
    const arrows = "→".repeat(5_000_000);
    expect(countEncodedTokens(arrows)).toBe(chunks(arrows));
    const marks = "\u0301".repeat(5_000_000);
    expect(countEncodedTokens(`→ ${marks}`)).toBe(countEncodedTokens("→ ") + chunks(marks));
  });

  it("counts the empty string as zero", () => {
    expect(countEncodedTokens("")).toBe(0);
  });
});

describe("tokenizerProfileFor", () => {
  it.each([
    [undefined, "o200k_base", true, 1],
    ["openai:gpt-4.1", "o200k_base", true, 1],
    ["gpt-5-mini", "o200k_base", true, 1],
    ["o3-2025-04-16", "o200k_base", true, 1],
    ["gpt-4o", "o200k_base", true, 1],
    ["openai/gpt-oss-120b", "o200k_base", true, 1],
    ["gpt-4", "cl100k_base", true, 1],
    ["gpt-4-turbo-2024-04-09", "cl100k_base", true, 1],
    ["gpt-3.5-turbo", "cl100k_base", true, 1],
    ["openrouter:openai/gpt-4.1", "o200k_base", true, 1],
    ["anthropic:claude-sonnet-4-5", "o200k_base", false, PROVIDER_ESTIMATE_FACTORS["anthropic"]],
    ["claude-3-5-haiku-latest", "o200k_base", false, PROVIDER_ESTIMATE_FACTORS["anthropic"]],
    ["gemini-2.5-pro", "o200k_base", false, PROVIDER_ESTIMATE_FACTORS["google"]],
    ["ollama:llama3.1:8b", "o200k_base", false, PROVIDER_ESTIMATE_FACTORS["meta"]],
    ["mistral-large-latest", "o200k_base", false, PROVIDER_ESTIMATE_FACTORS["mistral"]],
    ["acme:rocket-9000", "o200k_base", false, UNKNOWN_PROVIDER_ESTIMATE_FACTOR],
  ])("%s → %s, exact %s, factor %s", (model, encoding, exact, factor) => {
    expect(tokenizerProfileFor({ model })).toMatchObject({ encoding, exact, factor });
  });

  it("gives every estimated provider a factor above 1", () => {
    for (const factor of Object.values(PROVIDER_ESTIMATE_FACTORS)) expect(factor).toBeGreaterThan(1);
    expect(UNKNOWN_PROVIDER_ESTIMATE_FACTOR).toBeGreaterThan(1);
  });

  it("keys spellings of the same model alike", () => {
    expect(tokenizerProfileFor({ model: "gpt-4.1" }).key).toBe(tokenizerProfileFor({ model: "OpenAI:GPT-4.1" }).key);
    expect(tokenizerProfileFor({ model: "claude-sonnet-4-5" }).key).toBe("anthropic:claude-sonnet-4-5");
  });
});

describe("countTokens", () => {
  it("is exact for OpenAI models in their family's encoding", () => {
    const text = typescriptSample.repeat(5);
    expect(countTokens(text, { model: "openai:gpt-4.1" })).toBe(encodeO200k(text, asText).length);
    expect(countTokens(text, { model: "gpt-4" })).toBe(encodeCl100k(text, asText).length);
    expect(countTokens(text)).toBe(encodeO200k(text, asText).length);
  });

  it("estimates other providers as the o200k_base count times their factor, rounded up", () => {
    const text = typescriptSample.repeat(5);
    const base = encodeO200k(text, asText).length;
    expect(countTokens(text, { model: "anthropic:claude-sonnet-4-5" })).toBe(Math.ceil(base * 1.35));
    expect(countTokens(text, { model: "qwen3-32b" })).toBe(Math.ceil(base * 1.15));
    expect(countTokens(text, { model: "my-local-model" })).toBe(Math.ceil(base * 1.3));
    expect(countTokens(text, { model: "anthropic:claude-sonnet-4-5" })).toBeGreaterThan(base);
  });
});
