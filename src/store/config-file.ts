/**
 * The project configuration file, `.ctxwin/config.json`: model limits the catalog lacks or gets
 * wrong, budget settings and the strategy. Reading it never throws: a missing file is an empty
 * configuration, a bad one comes back as a typed `ConfigFileError` value naming what is wrong.
 *
 * ```json
 * {
 *   "models": { "ollama:qwen3:32b": { "contextLimit": 40960 } },
 *   "budget": { "threshold": 0.7, "outputReserve": 8192 },
 *   "strategy": "rollover"
 * }
 * ```
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { errorClass } from "../core/errors.js";

/** Where the file lives inside a project directory. */
export const CONFIG_FILE_PATH = path.join(".ctxwin", "config.json");

/** Larger files are refused unread: a configuration is a few hundred bytes. */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

const positiveInteger = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

const modelLimitsSchema = z
  .strictObject({ contextLimit: positiveInteger, maxOutputTokens: positiveInteger.optional() })
  .refine((limits) => limits.maxOutputTokens === undefined || limits.maxOutputTokens <= limits.contextLimit, {
    message: "maxOutputTokens is larger than contextLimit",
    path: ["maxOutputTokens"],
  });

const KNOWN_SECTIONS = ["$schema", "version", "models", "budget", "strategy"] as const;

export const ConfigFileSchema = z.looseObject({
  $schema: z.string().optional(),
  version: z.literal(1).optional(),
  models: z.record(z.string().trim().min(1), modelLimitsSchema).optional(),
  budget: z
    .strictObject({
      /** Fraction of the limit at which a window rolls over; 1 or more turns proactive rollover off. */
      threshold: z.number().positive().optional(),
      outputReserve: positiveInteger.optional(),
      imageTokens: positiveInteger.optional(),
      warningTurnTokens: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
    })
    .optional(),
  strategy: z.enum(["rollover", "compact", "off"]).optional(),
});

export interface CtxwinConfig {
  version?: 1;
  /** Model limits keyed by model reference, as `createModelCatalog({ overrides })` takes them. */
  models?: Record<string, { contextLimit: number; maxOutputTokens?: number }>;
  budget?: { threshold?: number; outputReserve?: number; imageTokens?: number; warningTurnTokens?: number };
  strategy?: "rollover" | "compact" | "off";
}

export interface ConfigIssue {
  /** Dotted path inside the file, e.g. `models.ollama:qwen3.contextLimit`. */
  path: string;
  message: string;
}

/**
 * The configuration file exists but cannot be used. Nothing of it is applied.
 *
 * @example
 * const result = await readConfigFile({ directory });
 * if (result.status === "invalid") console.error(result.error.message);
 */
export class ConfigFileError extends errorClass("CtxwinConfigFileError") {
  readonly path: string;
  readonly reason: "unreadable" | "too-large" | "not-json" | "invalid";
  readonly issues: ConfigIssue[];

  constructor({
    path: filePath,
    reason,
    issues,
    cause,
  }: {
    path: string;
    reason: ConfigFileError["reason"];
    issues: ConfigIssue[];
    cause?: unknown;
  }) {
    const details = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join("; ");
    super(`Configuration file ${filePath} was not used: ${details}.`, { cause });
    this.path = filePath;
    this.reason = reason;
    this.issues = issues;
  }
}

export type ConfigFileResult =
  | { status: "missing"; path: string; config: CtxwinConfig; warnings: string[] }
  | { status: "loaded"; path: string; config: CtxwinConfig; warnings: string[] }
  | { status: "invalid"; path: string; error: ConfigFileError };

/**
 * Reads `<directory>/.ctxwin/config.json` (or `path`). Never throws.
 *
 * @example
 * const result = await readConfigFile({ directory: process.cwd() });
 * const catalog = createModelCatalog({ overrides: result.status === "invalid" ? {} : (result.config.models ?? {}) });
 */
export async function readConfigFile({
  directory = process.cwd(),
  path: filePath,
}: { directory?: string; path?: string } = {}): Promise<ConfigFileResult> {
  const target = filePath ?? path.join(directory, CONFIG_FILE_PATH);
  let bytes: Buffer;
  try {
    bytes = await readFile(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { status: "missing", path: target, config: {}, warnings: [] };
    const message = `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    return {
      status: "invalid",
      path: target,
      error: new ConfigFileError({ path: target, reason: "unreadable", issues: [{ path: "", message }], cause: error }),
    };
  }
  if (bytes.length > MAX_CONFIG_FILE_BYTES) {
    const message = `is ${bytes.length} bytes, more than the ${MAX_CONFIG_FILE_BYTES} allowed for a configuration file`;
    return {
      status: "invalid",
      path: target,
      error: new ConfigFileError({ path: target, reason: "too-large", issues: [{ path: "", message }] }),
    };
  }
  return parseConfigText({ text: bytes.toString("utf8"), path: target });
}

/**
 * Parses and validates the text of a configuration file. Never throws. Unknown top-level
 * sections are kept out of the result and reported as warnings (a newer ctxwin may know them);
 * unknown keys inside a known section are errors (they are typos).
 *
 * @example
 * parseConfigText({ text: '{"strategy":"off"}', path: "config.json" }) // { status: "loaded", config: { strategy: "off" }, warnings: [] }
 */
export function parseConfigText({ text, path: filePath }: { text: string; path: string }): ConfigFileResult {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    const message = `is not valid JSON (${error instanceof Error ? error.message : String(error)})`;
    return {
      status: "invalid",
      path: filePath,
      error: new ConfigFileError({ path: filePath, reason: "not-json", issues: [{ path: "", message }], cause: error }),
    };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const issues = [{ path: "", message: "must contain a JSON object" }];
    return {
      status: "invalid",
      path: filePath,
      error: new ConfigFileError({ path: filePath, reason: "invalid", issues }),
    };
  }
  const parsed = ConfigFileSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join("."),
      message: issue.message,
    }));
    return {
      status: "invalid",
      path: filePath,
      error: new ConfigFileError({ path: filePath, reason: "invalid", issues }),
    };
  }
  const warnings = Object.keys(value)
    .filter((key) => !(KNOWN_SECTIONS as readonly string[]).includes(key))
    .map((key) => `${filePath}: unknown setting "${key}" was ignored`);
  const { models, budget, strategy, version } = parsed.data;
  const config: CtxwinConfig = {
    ...(version === undefined ? {} : { version }),
    ...(models === undefined ? {} : { models }),
    ...(budget === undefined ? {} : { budget }),
    ...(strategy === undefined ? {} : { strategy }),
  };
  return { status: "loaded", path: filePath, config, warnings };
}
