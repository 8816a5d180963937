import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createModelCatalog } from "../core/budget/model-catalog.js";
import { CtxwinError } from "../core/errors.js";
import {
  CONFIG_FILE_PATH,
  ConfigFileError,
  MAX_CONFIG_FILE_BYTES,
  parseConfigText,
  readConfigFile,
} from "./config-file.js";

let directory: string;

beforeEach(() => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-config-"));
});

afterEach(() => {
  fs.rmSync(directory, { recursive: true, force: true });
});

function writeConfig(content: string | Buffer): string {
  const file = path.join(directory, CONFIG_FILE_PATH);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

describe("readConfigFile", () => {
  it("treats a missing file as an empty configuration", async () => {
    const result = await readConfigFile({ directory });
    expect(result).toEqual({
      status: "missing",
      path: path.join(directory, CONFIG_FILE_PATH),
      config: {},
      warnings: [],
    });
  });

  it("loads models, budget and strategy, and the models feed the catalog", async () => {
    const config = {
      version: 1,
      models: {
        "ollama:qwen3:32b": { contextLimit: 40_960 },
        "anthropic:claude-sonnet-4-5": { contextLimit: 1_000_000, maxOutputTokens: 64_000 },
      },
      budget: { threshold: 0.8, outputReserve: 4_096, imageTokens: 1_500, warningTurnTokens: 1_000 },
      strategy: "compact",
    };
    const file = writeConfig(JSON.stringify({ $schema: "https://example.com/ctxwin-config.json", ...config }));
    const result = await readConfigFile({ directory });
    // Every setting as written; the `$schema` key is the editor's, not the config's.
    expect(result).toEqual({ status: "loaded", path: file, warnings: [], config });
    if (result.status !== "loaded") return;
    const catalog = createModelCatalog({ overrides: result.config.models ?? {} });
    expect(catalog.lookup("ollama:qwen3:32b")).toMatchObject({ status: "found", contextLimit: 40_960 });
    expect(catalog.lookup("claude-sonnet-4-5-20250929")).toMatchObject({ status: "found", contextLimit: 1_000_000 });
  });

  it("reads an explicit path and tolerates a byte-order mark", async () => {
    const file = path.join(directory, "custom.json");
    fs.writeFileSync(file, `\uFEFF{"strategy":"off"}`);
    expect(await readConfigFile({ path: file })).toMatchObject({ status: "loaded", config: { strategy: "off" } });
  });

  it("warns about unknown top-level settings instead of refusing the file", async () => {
    writeConfig(JSON.stringify({ strategy: "rollover", modles: {} }));
    const result = await readConfigFile({ directory });
    expect(result).toMatchObject({ status: "loaded", config: { strategy: "rollover" } });
    if (result.status === "loaded")
      expect(result.warnings).toEqual([expect.stringContaining('unknown setting "modles" was ignored')]);
  });

  it.each([
    ["not JSON", "{ models: ", "not-json", /is not valid JSON/],
    ["an empty file", "", "not-json", /is not valid JSON/],
    ["an array", "[]", "invalid", /must contain a JSON object/],
    [
      "a negative limit",
      JSON.stringify({ models: { "my-model": { contextLimit: -1 } } }),
      "invalid",
      /models\.my-model\.contextLimit/,
    ],
    [
      "a fractional limit",
      JSON.stringify({ models: { "my-model": { contextLimit: 1.5 } } }),
      "invalid",
      /contextLimit/,
    ],
    [
      "a limit given as text",
      JSON.stringify({ models: { "my-model": { contextLimit: "128k" } } }),
      "invalid",
      /contextLimit/,
    ],
    [
      "output above the limit",
      JSON.stringify({ models: { m: { contextLimit: 100, maxOutputTokens: 200 } } }),
      "invalid",
      /maxOutputTokens is larger than contextLimit/,
    ],
    ["a typo inside a model", JSON.stringify({ models: { m: { contextLimt: 100 } } }), "invalid", /models\.m/],
    [
      "an empty model name",
      JSON.stringify({ models: { " ": { contextLimit: 100 } } }),
      "invalid",
      /models.*Invalid key in record/,
    ],
    ["a zero threshold", JSON.stringify({ budget: { threshold: 0 } }), "invalid", /budget\.threshold/],
    ["a typo inside budget", JSON.stringify({ budget: { treshold: 0.7 } }), "invalid", /budget/],
    ["an unknown strategy", JSON.stringify({ strategy: "summarize" }), "invalid", /strategy/],
    ["a newer version", JSON.stringify({ version: 2 }), "invalid", /version/],
  ])("refuses %s with a typed error naming the problem", async (_label, content, reason, message) => {
    const file = writeConfig(content);
    const result = await readConfigFile({ directory });
    expect(result.status).toBe("invalid");
    if (result.status !== "invalid") return;
    expect(ConfigFileError.isInstance(result.error)).toBe(true);
    expect(CtxwinError.isInstance(result.error)).toBe(true);
    expect(result.error.name).toBe("CtxwinConfigFileError");
    expect(result.error.reason).toBe(reason);
    expect(result.error.path).toBe(file);
    expect(result.error.message).toContain(file);
    expect(result.error.message).toMatch(message);
  });

  it("refuses a directory in place of the file without throwing", async () => {
    fs.mkdirSync(path.join(directory, CONFIG_FILE_PATH), { recursive: true });
    const result = await readConfigFile({ directory });
    expect(result).toMatchObject({ status: "invalid", error: { reason: "unreadable" } });
  });

  it("refuses an oversized file unread", async () => {
    writeConfig(Buffer.alloc(MAX_CONFIG_FILE_BYTES + 1, 0x20));
    const result = await readConfigFile({ directory });
    expect(result).toMatchObject({ status: "invalid", error: { reason: "too-large" } });
  });
});

describe("parseConfigText", () => {
  it("parses without touching the disk", () => {
    expect(parseConfigText({ text: '{"budget":{"threshold":1}}', path: "inline" })).toEqual({
      status: "loaded",
      path: "inline",
      config: { budget: { threshold: 1 } },
      warnings: [],
    });
  });
});
