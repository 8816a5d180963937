/**
 * Token counting. OpenAI models get exact counts with gpt-tokenizer in the model family's
 * encoding (o200k_base, or cl100k_base for GPT-4/GPT-3.5); every other provider gets the
 * o200k_base count times a conservative per-provider factor. Special-token strings such as
 * `<|endoftext|>` inside a transcript are ordinary text here: counted, never thrown on.
 * An encoding's tables (o200k_base alone holds ~100 MB) load at the first count that needs them.
 */
import { textRuns } from "../text-runs.js";
import { readModelReference } from "./model-reference.js";

export type TokenEncodingName = "o200k_base" | "cl100k_base";

/** How the counts for one model are made. */
export interface TokenizerProfile {
  /** Normalized model reference (`anthropic:claude-sonnet-4-5`); `o200k_base` when no model is given. */
  key: string;
  /** Provider family the estimate is for, when one could be told. */
  provider: string | undefined;
  encoding: TokenEncodingName;
  /** `true` when the counts are the provider's own (OpenAI models). */
  exact: boolean;
  /** Multiplier applied to the encoding's count; 1 for exact counts. */
  factor: number;
  /** Converts a cached o200k_base count (a row's `tokens`) into this profile's encoding. */
  cachedFactor: number;
}

/**
 * o200k_base count × factor = the estimate for a provider whose tokenizer is not public.
 * Chosen above the typical ratio for English prose and code, so that an uncalibrated estimate
 * errs high; per-session calibration then moves it toward what the provider reports.
 */
export const PROVIDER_ESTIMATE_FACTORS: Readonly<Record<string, number>> = {
  anthropic: 1.35,
  google: 1.15,
  mistral: 1.25,
  deepseek: 1.15,
  xai: 1.2,
  meta: 1.15,
  qwen: 1.15,
};

/** Factor for a model whose provider cannot be told (a custom id on a local server). */
export const UNKNOWN_PROVIDER_ESTIMATE_FACTOR = 1.3;

/**
 * A cached row count is o200k_base; for a cl100k_base model it is scaled by this factor instead of
 * re-tokenizing the window (cl100k_base never needs fewer tokens than o200k_base on English or code,
 * and far more on some scripts). Legacy GPT-4/GPT-3.5 only.
 */
export const CL100K_CACHED_FACTOR = 1.25;

/** Runs of one character class at least this long are counted in chunks (see `countEncodedTokens`). */
export const LONG_RUN_CHARACTERS = 256;

const FAMILY_PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/^(?:gpt-|o\d|chatgpt-|codex-|text-embedding-|davinci|babbage)/, "openai"],
  [/^claude/, "anthropic"],
  [/^(?:gemini|gemma)/, "google"],
  [/^(?:mistral|mixtral|codestral|devstral|pixtral|ministral|magistral|open-mistral)/, "mistral"],
  [/^deepseek/, "deepseek"],
  [/^grok/, "xai"],
  [/^(?:llama|meta-llama)/, "meta"],
  [/^(?:qwen|qwq)/, "qwen"],
];

const CL100K_PATTERN = /^(?:gpt-4(?:-|$)|gpt-3\.5|text-embedding-(?:3|ada))/;

const profileCache = new Map<string, TokenizerProfile>();

const DEFAULT_PROFILE: TokenizerProfile = {
  key: "o200k_base",
  provider: undefined,
  encoding: "o200k_base",
  exact: true,
  factor: 1,
  cachedFactor: 1,
};

/**
 * How tokens are counted for `model`. Without a model: exact o200k_base.
 *
 * @example
 * tokenizerProfileFor({ model: "openai:gpt-4" }) // { encoding: "cl100k_base", exact: true, factor: 1, ... }
 * tokenizerProfileFor({ model: "claude-sonnet-4-5" }) // { encoding: "o200k_base", exact: false, factor: 1.35, ... }
 */
export function tokenizerProfileFor({ model }: { model?: string | undefined } = {}): TokenizerProfile {
  if (model === undefined) return DEFAULT_PROFILE;
  const cached = profileCache.get(model);
  if (cached) return cached;
  const profile = buildProfile(model);
  if (profileCache.size > 1_000) profileCache.clear();
  profileCache.set(model, profile);
  return profile;
}

function buildProfile(model: string): TokenizerProfile {
  const readings = readModelReference(model);
  const reading = readings.find((candidate) => candidate.providerKind === "known") ?? readings[0];
  const id = reading?.id ?? model.toLowerCase();
  const provider =
    reading?.providerKind === "known" ? reading.provider : FAMILY_PATTERNS.find(([pattern]) => pattern.test(id))?.[1];
  const keyProvider = reading?.provider ?? provider;
  const key = keyProvider === undefined ? id : `${keyProvider}:${id}`;
  if (provider === "openai") {
    const cl100k = CL100K_PATTERN.test(id);
    return {
      key,
      provider,
      encoding: cl100k ? "cl100k_base" : "o200k_base",
      exact: true,
      factor: 1,
      cachedFactor: cl100k ? CL100K_CACHED_FACTOR : 1,
    };
  }
  const factor =
    provider === undefined
      ? UNKNOWN_PROVIDER_ESTIMATE_FACTOR
      : (PROVIDER_ESTIMATE_FACTORS[provider] ?? UNKNOWN_PROVIDER_ESTIMATE_FACTOR);
  return { key, provider, encoding: "o200k_base", exact: false, factor, cachedFactor: 1 };
}

/**
 * Tokens of `text` for `model`: exact for OpenAI models, a conservative estimate (o200k_base ×
 * provider factor, rounded up) for the others. Without a model: exact o200k_base.
 *
 * @example
 * countTokens("hello world", { model: "openai:gpt-4o" }) // 2
 * countTokens("<|endoftext|>") // 7: a special-token string in a transcript is text
 */
export function countTokens(text: string, { model }: { model?: string | undefined } = {}): number {
  const profile = tokenizerProfileFor({ model });
  const count = countEncodedTokens(text, { encoding: profile.encoding });
  return profile.factor === 1 ? count : Math.ceil(count * profile.factor);
}

const AS_TEXT = { disallowedSpecial: new Set<string>() };
type EncodingCounter = (text: string, options: typeof AS_TEXT) => number;
// A synchronous load (counting is synchronous): the module loader, not I/O of ctxwin's own.
const requireEncoding = process.getBuiltinModule("node:module").createRequire(import.meta.url);
const loadedCounters = new Map<TokenEncodingName, EncodingCounter>();

/** The encoding's counter, loaded on first use (a synchronous `require`: counting is synchronous). */
function counterOf(encoding: TokenEncodingName): (text: string) => number {
  let counter = loadedCounters.get(encoding);
  if (counter === undefined) {
    counter = (requireEncoding(`gpt-tokenizer/encoding/${encoding}`) as { countTokens: EncodingCounter }).countTokens;
    loadedCounters.set(encoding, counter);
  }
  const loaded = counter;
  return (text) => loaded(text, AS_TEXT);
}

/**
 * The count of `text` in one encoding, special tokens as text. Byte-pair encoding of a single very
 * long piece (100,000 × "a") takes quadratic time, so runs of one character class of
 * `LONG_RUN_CHARACTERS` or more are counted in chunks of that length: exact for every text without
 * such a run, within a token or so per chunk for the rest, and always fast.
 *
 * @example
 * countEncodedTokens("hello world", { encoding: "o200k_base" }) // 2
 */
export function countEncodedTokens(
  text: string,
  { encoding = "o200k_base" }: { encoding?: TokenEncodingName } = {},
): number {
  if (text.length === 0) return 0;
  const count = counterOf(encoding);
  const runs = longRuns(text);
  if (runs.length === 0) return count(text);
  let total = 0;
  let position = 0;
  for (const [start, end] of runs) {
    if (start > position) total += count(text.slice(position, start));
    for (let chunk = start; chunk < end; chunk += LONG_RUN_CHARACTERS)
      total += count(text.slice(chunk, Math.min(end, chunk + LONG_RUN_CHARACTERS)));
    position = end;
  }
  if (position < text.length) total += count(text.slice(position));
  return total;
}

/** Letters (with their marks), and punctuation or symbols: the pieces a long run may hold. */
const LONG_PIECE_CLASSES = ["[\\p{L}\\p{M}]", "[^\\s\\p{L}\\p{N}]"];

/** Ranges that the pre-tokenizer would turn into one over-long piece. */
function longRuns(text: string): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let runStart = 0;
  let runIsSpace = isSpace(text.charCodeAt(0));
  const close = (end: number) => {
    if (end - runStart < LONG_RUN_CHARACTERS) return;
    if (runIsSpace) {
      runs.push([runStart, end]);
      return;
    }
    // A long run without spaces is usually ordinary (a URL, minified code): only its long
    // letter or punctuation pieces need chunking.
    // Bounded regex loops (`text-runs.ts`): a run of megabytes must not overflow V8's regex stack.
    for (const piece of textRuns(text.slice(runStart, end), {
      classes: LONG_PIECE_CLASSES,
      minimum: LONG_RUN_CHARACTERS,
    })) {
      runs.push([runStart + piece.start, runStart + piece.end]);
    }
  };
  for (let index = 1; index < text.length; index += 1) {
    const space = isSpace(text.charCodeAt(index));
    if (space !== runIsSpace) {
      close(index);
      runStart = index;
      runIsSpace = space;
    }
  }
  close(text.length);
  return runs;
}

function isSpace(code: number): boolean {
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0x85 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
