import { describe, expect, it } from "vitest";
import { createModelCatalog } from "../core/budget/model-catalog.js";
import { modelKey } from "../session/budget-policy.js";
import {
  MAXIMUM_CONTEXT_LIMIT,
  MINIMUM_CONTEXT_LIMIT,
  ModelConfigError,
  parseContextLimit,
  parsePromptCache,
  resolveModel,
  type ModelFlags,
} from "./model-flags.js";

const keys = { OPENAI_API_KEY: "sk-test", ANTHROPIC_API_KEY: "sk-ant-test" };

function refusal(flags: ModelFlags): string {
  try {
    resolveModel(flags);
  } catch (error) {
    expect(ModelConfigError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error("expected a ModelConfigError");
}

function modelOf(flags: ModelFlags) {
  const resolved = resolveModel(flags);
  if (typeof resolved.model === "string") throw new Error("expected a model object");
  return { ...resolved, model: resolved.model };
}

describe("resolveModel", () => {
  it("builds OpenAI and Anthropic models from a prefix, with the catalog's limit", () => {
    const openai = modelOf({ model: "openai:gpt-4.1-mini", env: keys });
    expect(openai.label).toBe("openai:gpt-4.1-mini");
    expect(openai.model.modelId).toBe("gpt-4.1-mini");
    expect(modelKey(openai.model)).toBe("openai:gpt-4.1-mini");
    expect(openai.contextLimit).toBeUndefined();

    const anthropic = modelOf({ model: "anthropic:claude-sonnet-4-5", env: keys });
    expect(anthropic.label).toBe("anthropic:claude-sonnet-4-5");
    expect(modelKey(anthropic.model)).toBe("anthropic:claude-sonnet-4-5");
  });

  it("builds a Gemini model from google:<id> through @ai-sdk/google, with the key from either of Google's variables", () => {
    const google = modelOf({ model: "google:gemini-2.5-pro", env: { GOOGLE_GENERATIVE_AI_API_KEY: "g-test" } });
    expect(google.label).toBe("google:gemini-2.5-pro");
    expect(google.provider).toBe("google");
    expect(google.model.provider).toBe("google.generative-ai");
    expect(modelKey(google.model)).toBe("google:gemini-2.5-pro");
    expect(google.contextLimit).toBeUndefined();
    expect(google.keyVariable).toBe("GOOGLE_GENERATIVE_AI_API_KEY");
    expect(modelOf({ model: "google:gemini-2.5-flash", env: { GEMINI_API_KEY: "g-test" } }).keyVariable).toBe(
      "GEMINI_API_KEY",
    );
    const proxied = modelOf({
      model: "google:gemini-2.5-flash",
      env: { GEMINI_API_KEY: "g-test", GOOGLE_GENERATIVE_AI_BASE_URL: "http://127.0.0.1:9/v1beta/" },
    });
    expect(proxied.baseUrl).toBe("http://127.0.0.1:9/v1beta");
    expect(modelKey(modelOf({ model: "gemini-2.5-flash", env: { GEMINI_API_KEY: "g-test" } }).model)).toBe(
      "google:gemini-2.5-flash",
    );
    expect(refusal({ model: "google:gemini-2.5-pro", env: keys })).toBe(
      "no API key: set GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY.",
    );
    expect(refusal({ model: "google:", env: keys })).toMatch(
      /no model id in --model 'google:': expected e.g. google:gemini-2.5-flash/,
    );
  });

  it("infers the provider of a bare catalog id", () => {
    expect(modelKey(modelOf({ model: "gpt-4.1", env: keys }).model)).toBe("openai:gpt-4.1");
    expect(modelKey(modelOf({ model: "claude-haiku-4-5", env: keys }).model)).toBe("anthropic:claude-haiku-4-5");
  });

  it("takes the model from CTXWIN_MODEL when no flag names one, and an explicit apiKey over the environment", () => {
    expect(resolveModel({ env: { CTXWIN_MODEL: "openai:gpt-4.1-mini" }, apiKey: "sk-flag" }).label).toBe(
      "openai:gpt-4.1-mini",
    );
  });

  it("passes a user's --context-limit through, also for a model the catalog knows", () => {
    expect(resolveModel({ model: "openai:gpt-4.1-mini", contextLimit: 16_000, env: keys }).contextLimit).toBe(16_000);
  });

  it("points an OpenAI-compatible model at --base-url, sending the id as written unless a host prefix names the server", () => {
    const plain = modelOf({ model: "qwen3:32b", baseUrl: "http://127.0.0.1:11434/v1/", contextLimit: 40_960, env: {} });
    expect(plain.model.modelId).toBe("qwen3:32b");
    expect(plain.model.provider).toBe("openai-compatible.chat");
    expect(plain.label).toBe("qwen3:32b @ http://127.0.0.1:11434/v1");
    expect(plain.contextLimit).toBe(40_960);

    const onOllama = (model: string) =>
      modelOf({ model, baseUrl: "http://127.0.0.1:11434/v1", contextLimit: 32_768, env: {} });
    const ollama = onOllama("ollama:mistral:7b");
    expect(ollama.model.modelId).toBe("mistral:7b");
    expect(modelKey(ollama.model)).toBe("ollama:mistral:7b");
    expect(onOllama("mistral:7b").model.modelId).toBe("mistral:7b");
  });

  it("uses the catalog for a known model behind a proxy named by its provider prefix", () => {
    const proxied = modelOf({ model: "openai:gpt-4.1-mini", baseUrl: "http://127.0.0.1:4000/v1", env: {} });
    expect(proxied.model.modelId).toBe("gpt-4.1-mini");
    expect(modelKey(proxied.model)).toBe("openai:gpt-4.1-mini");
    expect(proxied.contextLimit).toBeUndefined();
  });

  it("reaches OpenRouter as an OpenAI-compatible server: openrouter:<provider>/<model> sends the router's id and takes the catalog's limit", () => {
    const routed = modelOf({
      model: "openrouter:anthropic/claude-sonnet-4.5",
      baseUrl: "https://openrouter.ai/api/v1",
      env: { CTXWIN_API_KEY: "sk-or-test" },
    });
    expect(routed.model.modelId).toBe("anthropic/claude-sonnet-4.5");
    expect(routed.model.provider).toBe("openrouter.chat");
    expect(modelKey(routed.model)).toBe("openrouter:anthropic/claude-sonnet-4.5");
    expect(routed.contextLimit).toBeUndefined();
    expect(routed.keyVariable).toBe("CTXWIN_API_KEY");
    expect(createModelCatalog().lookup(modelKey(routed.model))).toMatchObject({
      status: "found",
      contextLimit: 200_000,
    });
    // Without the prefix the id is the server's own, whose window only the user knows.
    expect(refusal({ model: "anthropic/claude-sonnet-4.5", baseUrl: "https://openrouter.ai/api/v1", env: {} })).toMatch(
      /context limit of anthropic\/claude-sonnet-4.5 @ https:\/\/openrouter.ai\/api\/v1 is unknown/,
    );
  });

  it("takes the base URL from CTXWIN_BASE_URL", () => {
    expect(
      resolveModel({ model: "llama", contextLimit: 8192, env: { CTXWIN_BASE_URL: "http://127.0.0.1:8080/v1" } }).label,
    ).toBe("llama @ http://127.0.0.1:8080/v1");
  });

  it("finds a local model's limit in a catalog with the config file's overrides", () => {
    const catalog = createModelCatalog({ overrides: { "ollama:qwen3:32b": { contextLimit: 40_960 } } });
    expect(
      resolveModel({ model: "ollama:qwen3:32b", baseUrl: "http://127.0.0.1:11434/v1", env: {}, catalog }).contextLimit,
    ).toBeUndefined();
  });

  it("refuses a missing model, naming the flag", () => {
    expect(refusal({ env: keys })).toMatch(/no model given: pass --model/);
    expect(refusal({ model: "  ", env: keys })).toMatch(/pass --model/);
  });

  it("refuses an unknown provider prefix, listing the valid ones", () => {
    const message = refusal({ model: "gemini:gemini-2.5-pro", env: keys });
    expect(message).toContain("unknown provider 'gemini'");
    expect(message).toContain("openai:<model>");
    expect(message).toContain("anthropic:<model>");
    expect(message).toContain("google:<model>");
    expect(message).toContain("--base-url");
    expect(refusal({ model: "qwen3:32b", env: keys })).toContain("unknown provider 'qwen3'");
  });

  it("refuses a bare id the catalog does not place, and an empty id after the prefix", () => {
    expect(refusal({ model: "my-model", env: keys })).toMatch(
      /cannot tell the provider of --model 'my-model'.*openai:my-model/,
    );
    expect(refusal({ model: "openai:", env: keys })).toMatch(/no model id/);
  });

  it("refuses a missing API key with the variable to set", () => {
    expect(refusal({ model: "openai:gpt-4.1-mini", env: {} })).toMatch(/^no API key: set OPENAI_API_KEY/);
    expect(refusal({ model: "anthropic:claude-sonnet-4-5", env: { ANTHROPIC_API_KEY: " " } })).toMatch(
      /^no API key: set ANTHROPIC_API_KEY/,
    );
  });

  it("needs no key for an OpenAI-compatible server", () => {
    expect(() =>
      resolveModel({ model: "local-model", baseUrl: "http://127.0.0.1:8080/v1", contextLimit: 8192, env: {} }),
    ).not.toThrow();
  });

  it("refuses a model the catalog does not know without --context-limit", () => {
    expect(refusal({ model: "qwen3:32b", baseUrl: "http://127.0.0.1:11434/v1", env: {} })).toMatch(
      /context limit of qwen3:32b @ http:\/\/127\.0\.0\.1:11434\/v1 is unknown: pass --context-limit <tokens>/,
    );
    expect(refusal({ model: "openai:gpt-99-unknown", env: keys })).toMatch(
      /context limit of openai:gpt-99-unknown is unknown: pass --context-limit/,
    );
  });

  it("refuses bad context limits and bad URLs", () => {
    for (const contextLimit of [0, -5, 1.5, MINIMUM_CONTEXT_LIMIT - 1, MAXIMUM_CONTEXT_LIMIT + 1, Number.NaN]) {
      expect(refusal({ model: "openai:gpt-4.1-mini", contextLimit, env: keys })).toMatch(/^bad --context-limit/);
    }
    expect(refusal({ model: "m", baseUrl: "not a url", contextLimit: 8192, env: {} })).toMatch(
      /^bad --base-url 'not a url'/,
    );
    expect(refusal({ model: "m", baseUrl: "ftp://127.0.0.1/v1", contextLimit: 8192, env: {} })).toMatch(
      /^bad --base-url.*http/,
    );
    expect(refusal({ model: "openai:gpt-4.1-mini", env: { ...keys, OPENAI_BASE_URL: "::" } })).toMatch(
      /^bad OPENAI_BASE_URL/,
    );
  });
});

describe("parseContextLimit", () => {
  it("reads whole numbers with separators and a k suffix", () => {
    expect(parseContextLimit("32768")).toBe(32_768);
    expect(parseContextLimit("40_960")).toBe(40_960);
    expect(parseContextLimit("128,000")).toBe(128_000);
    expect(parseContextLimit("128k")).toBe(128_000);
  });

  it("refuses anything else with a ModelConfigError", () => {
    for (const text of ["", "abc", "-1", "1e5", "12.5k", "100", "99999999999999"]) {
      expect(() => parseContextLimit(text), text).toThrow(/bad --context-limit/);
    }
  });
});

describe("parsePromptCache", () => {
  it("reads on, 5m, 1h and off, in any case", () => {
    expect(parsePromptCache("on")).toEqual({});
    expect(parsePromptCache("5m")).toEqual({});
    expect(parsePromptCache(" 1H ")).toEqual({ ttl: "1h" });
    expect(parsePromptCache("off")).toBe(false);
  });

  it("refuses anything else in one line naming the choices", () => {
    for (const text of ["", "yes", "2h", "60m"]) {
      expect(() => parsePromptCache(text), text).toThrow(/bad --prompt-cache .*expected on .*1h .*off/);
    }
  });
});
