/**
 * A recorded request as the prompt-cache simulations see it: a list of blocks in the order the
 * provider reads them (tool definitions, system text, then each content part of each message),
 * each with its token count, the hash of the request up to and including it, and whether a
 * `cache_control` breakpoint is set on it. A message's breakpoint sits on its last part, as
 * `@ai-sdk/anthropic` sends it. Token counts are o200k_base counts, memoized per distinct block.
 */
import { createHash } from "node:crypto";
import type { LanguageModelV4CallOptions, SharedV4ProviderOptions } from "@ai-sdk/provider";
import { countTokens } from "../../src/core/budget/token-count.js";

export interface RequestBlocks {
  /** Tokens of each block. */
  tokens: number[];
  /** Hash of the request up to and including each block. */
  prefixHashes: string[];
  /** Tokens of the request up to and including each block. */
  prefixTokens: number[];
  /** Indexes of the blocks that carry a breakpoint. */
  breakpoints: number[];
  totalTokens: number;
}

const tokenMemo = new Map<string, number>();

function tokensOf(key: string, text: string): number {
  let tokens = tokenMemo.get(key);
  if (tokens === undefined) {
    tokens = countTokens(text);
    tokenMemo.set(key, tokens);
  }
  return tokens;
}

function hasCacheControl(options: SharedV4ProviderOptions | undefined): boolean {
  const own = options?.["anthropic"];
  return own !== undefined && (own["cacheControl"] != null || own["cache_control"] != null);
}

/**
 * @example const blocks = requestBlocks({ prompt: call.prompt, tools: call.tools });
 */
export function requestBlocks({
  prompt,
  tools = [],
}: Pick<LanguageModelV4CallOptions, "prompt" | "tools">): RequestBlocks {
  const texts: string[] = [];
  const marks: boolean[] = [];
  for (const tool of tools) {
    const { providerOptions, ...definition } = tool as typeof tool & { providerOptions?: SharedV4ProviderOptions };
    texts.push(JSON.stringify(definition));
    marks.push(hasCacheControl(providerOptions));
  }
  for (const message of prompt) {
    const messageMark = hasCacheControl(message.providerOptions);
    if (typeof message.content === "string") {
      texts.push(`${message.role}\n${message.content}`);
      marks.push(messageMark);
      continue;
    }
    message.content.forEach((part, index) => {
      const { providerOptions, ...content } = part as typeof part & { providerOptions?: SharedV4ProviderOptions };
      texts.push(`${message.role}\n${JSON.stringify(content)}`);
      marks.push(hasCacheControl(providerOptions) || (messageMark && index === message.content.length - 1));
    });
  }
  const tokens: number[] = [];
  const prefixHashes: string[] = [];
  const prefixTokens: number[] = [];
  const breakpoints: number[] = [];
  let hash = "";
  let total = 0;
  texts.forEach((text, index) => {
    const blockHash = createHash("sha1").update(text).digest("hex");
    const count = tokensOf(blockHash, text);
    hash = createHash("sha1").update(hash).update(blockHash).digest("hex");
    total += count;
    tokens.push(count);
    prefixHashes.push(hash);
    prefixTokens.push(total);
    if (marks[index] === true) breakpoints.push(index);
  });
  return { tokens, prefixHashes, prefixTokens, breakpoints, totalTokens: total };
}
