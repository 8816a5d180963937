import * as openAiModels from "gpt-tokenizer/models";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidArgumentError } from "../errors.js";
import catalogFile from "./model-catalog.json" with { type: "json" };
import {
  builtInModelEntries,
  contextLimitFor,
  createModelCatalog,
  defaultModelCatalog,
  lookupModel,
} from "./model-catalog.js";
import { idCandidates, readModelReference } from "./model-reference.js";
import { createUnknownModelWarner } from "./unknown-model-warnings.js";

const catalogSchema = z.strictObject({
  version: z.literal(1),
  notes: z.string().min(1),
  families: z
    .array(
      z.strictObject({
        provider: z.enum(["openai", "anthropic", "google", "mistral", "deepseek", "xai", "meta", "qwen"]),
        family: z.string().min(1),
        source: z.string().min(10),
        asOf: z.iso.date(),
        models: z
          .array(
            z.strictObject({
              id: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/),
              contextLimit: z.number().int().positive(),
              maxOutputTokens: z.number().int().positive().optional(),
              aliases: z
                .array(z.string().regex(/^[a-z0-9][a-z0-9.-]*$/))
                .min(1)
                .optional(),
            }),
          )
          .min(1),
      }),
    )
    .min(8),
});

describe("the shipped catalog", () => {
  it("is well formed, with a source and a date for every family", () => {
    expect(() => catalogSchema.parse(catalogFile)).not.toThrow();
  });

  it("covers every provider family named in the design", () => {
    const providers = new Set(catalogFile.families.map((family) => family.provider));
    expect([...providers].sort()).toEqual([
      "anthropic",
      "deepseek",
      "google",
      "meta",
      "mistral",
      "openai",
      "qwen",
      "xai",
    ]);
  });

  it("never lists an id or alias twice, and never an output above the context", () => {
    const seen = new Map<string, string>();
    for (const entry of builtInModelEntries()) {
      for (const id of [entry.id, ...entry.aliases]) {
        expect(seen.get(id), `${id} appears twice`).toBeUndefined();
        seen.set(id, entry.id);
      }
      if (entry.maxOutputTokens !== undefined) expect(entry.maxOutputTokens).toBeLessThanOrEqual(entry.contextLimit);
    }
  });

  it("agrees with the OpenAI model metadata bundled in gpt-tokenizer", () => {
    const reference = openAiModels as unknown as Record<
      string,
      { context_window?: number; max_output_tokens?: number } | undefined
    >;
    let compared = 0;
    for (const entry of builtInModelEntries().filter((candidate) => candidate.provider === "openai")) {
      const spec = [entry.id, ...entry.aliases]
        .map((id) => reference[id])
        .find((candidate) => candidate?.context_window !== undefined);
      if (spec === undefined) continue;
      expect({ id: entry.id, contextLimit: entry.contextLimit, maxOutputTokens: entry.maxOutputTokens }).toEqual({
        id: entry.id,
        contextLimit: spec.context_window,
        maxOutputTokens: spec.max_output_tokens,
      });
      compared += 1;
    }
    expect(compared).toBeGreaterThanOrEqual(30);
  });
});

describe("readModelReference", () => {
  it.each([
    ["openai:gpt-4.1", "openai", "gpt-4.1"],
    ["OpenAI/GPT-4.1", "openai", "gpt-4.1"],
    ["openai.responses:gpt-5", "openai", "gpt-5"],
    ["meta-llama/Llama-3.3-70B-Instruct", "meta", "llama-3.3-70b-instruct"],
    ["ollama:qwen3:32b", "ollama", "qwen3:32b"],
    ["openrouter:anthropic/claude-3.5-sonnet", "anthropic", "claude-3.5-sonnet"],
    ["models/gemini-2.0-flash", undefined, "gemini-2.0-flash"],
    ["us.anthropic.claude-3-7-sonnet-20250219-v1:0", "anthropic", "claude-3-7-sonnet-20250219"],
    ["ft:gpt-4o-mini-2024-07-18:acme::abc123", "openai", "gpt-4o-mini-2024-07-18"],
    ["  gpt-4o  ", undefined, "gpt-4o"],
  ])("%s → %s / %s", (reference, provider, id) => {
    expect(readModelReference(reference)[0]).toMatchObject({ provider, id });
  });

  it("refuses an empty reference", () => {
    expect(() => readModelReference("  ")).toThrow(InvalidArgumentError);
    expect(() => readModelReference(undefined as unknown as string)).toThrow(InvalidArgumentError);
  });

  it("lists suffix-stripped candidates one suffix at a time", () => {
    expect(idCandidates("claude-3-5-sonnet-20241022")).toEqual(["claude-3-5-sonnet-20241022", "claude-3-5-sonnet"]);
    expect(idCandidates("gpt-4o-2024-08-06")).toEqual(["gpt-4o-2024-08-06", "gpt-4o"]);
    expect(idCandidates("gemini-2.5-pro-preview-06-05")).toEqual([
      "gemini-2.5-pro-preview-06-05",
      "gemini-2.5-pro-preview",
      "gemini-2.5-pro",
    ]);
    expect(idCandidates("mistral-large-latest")).toEqual(["mistral-large-latest", "mistral-large"]);
    expect(idCandidates("gpt-4.1")).toEqual(["gpt-4.1"]);
  });
});

describe("lookupModel", () => {
  it.each([
    ["gpt-4.1", "openai:gpt-4.1", 1_047_576, 32_768, "exact"],
    ["GPT-4.1-MINI-2025-04-14", "openai:gpt-4.1-mini", 1_047_576, 32_768, "suffix"],
    ["openai/gpt-4o-2024-08-06", "openai:gpt-4o", 128_000, 16_384, "suffix"],
    ["gpt-4o-2024-05-13", "openai:gpt-4o-2024-05-13", 128_000, 4_096, "exact"],
    ["openai:gpt-5", "openai:gpt-5", 400_000, 128_000, "exact"],
    ["gpt-5-chat-latest", "openai:gpt-5-chat", 128_000, 16_384, "alias"],
    ["o4-mini-2025-04-16", "openai:o4-mini", 200_000, 100_000, "suffix"],
    ["gpt-4-0613", "openai:gpt-4", 8_192, 8_192, "suffix"],
    ["gpt-4-0125-preview", "openai:gpt-4-0125-preview", 128_000, 4_096, "exact"],
    ["anthropic:claude-sonnet-4-5-20250929", "anthropic:claude-sonnet-4-5", 200_000, 64_000, "suffix"],
    ["claude-3-5-sonnet-latest", "anthropic:claude-3-5-sonnet", 200_000, 8_192, "suffix"],
    ["claude-sonnet-4-0", "anthropic:claude-sonnet-4", 200_000, 64_000, "alias"],
    ["claude-3-5-sonnet@20240620", "anthropic:claude-3-5-sonnet", 200_000, 8_192, "suffix"],
    ["anthropic.claude-3-5-sonnet-20241022-v2:0", "anthropic:claude-3-5-sonnet", 200_000, 8_192, "suffix"],
    ["openrouter:anthropic/claude-3.7-sonnet", "anthropic:claude-3-7-sonnet", 200_000, 64_000, "alias"],
    ["google:gemini-2.5-pro", "google:gemini-2.5-pro", 1_048_576, 65_536, "exact"],
    ["google:gemini-3.1-pro-preview", "google:gemini-3.1-pro-preview", 1_048_576, 65_536, "exact"],
    ["gemini-3-flash-preview", "google:gemini-3-flash-preview", 1_048_576, 65_536, "exact"],
    ["models/gemini-2.0-flash-001", "google:gemini-2.0-flash", 1_048_576, 8_192, "suffix"],
    ["gemini-1.5-pro-002", "google:gemini-1.5-pro", 2_097_152, 8_192, "suffix"],
    ["mistral:mistral-large-latest", "mistral:mistral-large", 128_000, undefined, "suffix"],
    ["codestral-2508", "mistral:codestral", 256_000, undefined, "suffix"],
    ["deepseek:deepseek-reasoner", "deepseek:deepseek-reasoner", 128_000, 64_000, "exact"],
    ["xai:grok-4-0709", "xai:grok-4", 256_000, undefined, "suffix"],
    ["meta-llama/Llama-3.3-70B-Instruct", "meta:llama-3.3-70b-instruct", 128_000, undefined, "exact"],
    ["Qwen/Qwen3-235B-A22B-Instruct-2507", "qwen:qwen3-235b-a22b-instruct-2507", 262_144, undefined, "exact"],
  ])("%s → %s (%i / %s, %s)", (model, key, contextLimit, maxOutputTokens, matched) => {
    expect(lookupModel({ model })).toMatchObject({ status: "found", key, contextLimit, maxOutputTokens, matched });
  });

  it("does not cross providers: a provider-qualified id must be that provider's", () => {
    expect(lookupModel({ model: "openai:claude-sonnet-4-5" })).toMatchObject({
      status: "unknown",
      needsUserLimit: false,
    });
  });

  it("answers unknown models with no limit (never 0, never unlimited)", () => {
    const result = lookupModel({ model: "acme:rocket-9000" });
    expect(result).toMatchObject({ status: "unknown", key: "rocket-9000", needsUserLimit: false });
    expect(result.status === "unknown" && result.message).toMatch(/not in ctxwin's model catalog/);
    expect(contextLimitFor({ model: "acme:rocket-9000" })).toBeUndefined();
    expect(contextLimitFor({ model: "claude-haiku-4-5" })).toBe(200_000);
  });

  it("says a local server's limit must come from the user, even for a model the catalog knows", () => {
    for (const model of ["ollama:qwen3:32b", "lmstudio:llama-3.3-70b-instruct", "openai-compatible:gpt-4o"]) {
      const result = lookupModel({ model });
      expect(result.status).toBe("unknown");
      if (result.status !== "unknown") continue;
      expect(result.needsUserLimit).toBe(true);
      expect(result.message).toMatch(/must come from you/);
      expect(result.message).toMatch(/\.ctxwin\/config\.json/);
    }
  });
});

describe("overrides", () => {
  it("adds models, including local ones, in list or record form", () => {
    const catalog = createModelCatalog({
      overrides: {
        "ollama:qwen3:32b": { contextLimit: 40_960 },
        "my-finetune": { contextLimit: 64_000, maxOutputTokens: 4_000 },
      },
    });
    expect(catalog.lookup("OLLAMA:Qwen3:32B")).toMatchObject({
      status: "found",
      contextLimit: 40_960,
      entry: { origin: "override" },
    });
    expect(catalog.lookup("lmstudio:my-finetune")).toMatchObject({
      status: "found",
      contextLimit: 64_000,
      maxOutputTokens: 4_000,
    });
    expect(catalog.lookup("my-finetune-latest")).toMatchObject({
      status: "found",
      contextLimit: 64_000,
      matched: "suffix",
    });
    // A provider-qualified override applies to that provider only.
    expect(catalog.lookup("vllm:qwen3:32b").status).toBe("unknown");
  });

  it("replaces shipped entries, later overrides winning", () => {
    const catalog = createModelCatalog({
      overrides: [{ model: "anthropic:claude-sonnet-4-5", contextLimit: 1_000_000 }],
    }).withOverrides([{ model: "claude-sonnet-4-5", contextLimit: 500_000 }]);
    expect(catalog.lookup("claude-sonnet-4-5-20250929")).toMatchObject({ contextLimit: 500_000 });
    expect(catalog.lookup("anthropic:claude-sonnet-4-5")).toMatchObject({ contextLimit: 1_000_000 });
    expect(defaultModelCatalog.lookup("claude-sonnet-4-5")).toMatchObject({ contextLimit: 200_000 });
  });

  it("applies a provider-qualified override of a shipped model to all its spellings", () => {
    const catalog = createModelCatalog({ overrides: { "anthropic:claude-sonnet-4-5": { contextLimit: 1_000_000 } } });
    for (const model of [
      "claude-sonnet-4-5",
      "claude-sonnet-4-5-20250929",
      "openrouter:anthropic/claude-sonnet-4.5",
      "anthropic.claude-sonnet-4-5-20250929-v1:0",
    ]) {
      expect(catalog.lookup(model), model).toMatchObject({
        status: "found",
        contextLimit: 1_000_000,
        entry: { origin: "override" },
      });
    }
    expect(catalog.lookup("claude-opus-4-5")).toMatchObject({ contextLimit: 200_000 });
  });

  it("prefers an exact shipped id over an override that only matches after stripping a suffix", () => {
    const catalog = createModelCatalog({ overrides: { "gpt-4o": { contextLimit: 64_000 } } });
    expect(catalog.lookup("gpt-4o-2024-05-13")).toMatchObject({ contextLimit: 128_000, entry: { origin: "built-in" } });
    expect(catalog.lookup("gpt-4o-2024-08-06")).toMatchObject({ contextLimit: 64_000, entry: { origin: "override" } });
  });

  it("can start from an empty catalog", () => {
    const catalog = createModelCatalog({ builtIn: false, overrides: { "gpt-4.1": { contextLimit: 10 } } });
    expect(catalog.entries()).toHaveLength(1);
    expect(catalog.lookup("gpt-4o").status).toBe("unknown");
  });

  it.each([
    [{ model: "x", contextLimit: 0 }, /contextLimit/],
    [{ model: "x", contextLimit: -5 }, /contextLimit/],
    [{ model: "x", contextLimit: 1.5 }, /contextLimit/],
    [{ model: "x", contextLimit: 100, maxOutputTokens: 0 }, /maxOutputTokens/],
    [{ model: "x", contextLimit: 100, maxOutputTokens: 200 }, /larger than contextLimit/],
    [{ model: "", contextLimit: 100 }, /model must be a non-empty string/],
  ])("refuses %j", (override, message) => {
    expect(() => createModelCatalog({ overrides: [override] })).toThrow(message);
  });
});

describe("createUnknownModelWarner", () => {
  it("logs once per model, whatever the spelling", () => {
    const logged: string[] = [];
    const warner = createUnknownModelWarner({ log: (message) => logged.push(message) });
    for (const model of [
      "ollama:qwen3:32b",
      "OLLAMA:qwen3:32b",
      "ollama:qwen3:32b",
      "rocket-9000",
      "acme/rocket-9000",
    ]) {
      const result = lookupModel({ model });
      if (result.status === "unknown") warner.warn(result);
    }
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(/ollama:qwen3:32b/);
    expect(logged[1]).toMatch(/rocket-9000/);
  });
});
