/**
 * The web UI's settings: strategy, threshold and a context limit override, read from and written
 * to `<dir>/.ctxwin/config.json`. Writing keeps every other section of the file untouched
 * (unknown ones included) and replaces the file atomically. The context limit is stored as the
 * override of the server's chat model (`models["<provider>:<model>"].contextLimit`), the place
 * `ctxwin chat` and the catalog already read it from; `--context-limit` wins at start, a limit
 * set in the settings after that, and clearing it (null) returns to the flag's.
 */
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_THRESHOLD } from "../core/budget/step-budget.js";
import { writeFileAtomic } from "../store/atomic-write.js";
import { CONFIG_FILE_PATH, parseConfigText, readConfigFile, type CtxwinConfig } from "../store/config-file.js";
import { ApiError } from "./api-error.js";
import type { SettingsView, Strategy } from "./view-types.js";

export const SETTINGS_EXPLANATIONS = {
  strategy:
    "Rollover starts a fresh context window near the budget and keeps every earlier message " +
    "searchable; compact replaces the window with an LLM summary; " +
    "off only refuses requests above the hard ceiling.",
  threshold:
    "Share of the context limit at which the next message starts a new window; the agent is warned to save its notes 10 points earlier.",
  contextLimit:
    "Tokens the model accepts in one request, for a model the built-in catalog does not know or to use less of it; empty uses the catalog.",
} as const satisfies SettingsView["explanations"];

export interface SettingsChange {
  strategy?: Strategy;
  threshold?: number;
  contextLimit?: number | null;
}

export interface SettingsStore {
  /** The settings as the next agent turn will use them, with the configuration they come from. */
  read(): Promise<{ view: SettingsView; config: CtxwinConfig; contextLimit: number | undefined }>;
  write(change: SettingsChange): Promise<SettingsView>;
}

/**
 * @example
 * const settings = createSettingsStore({ directory: "/work/project", modelKey: "openai:gpt-4.1-mini" });
 * await settings.write({ threshold: 0.6 });
 */
export function createSettingsStore({
  directory,
  modelKey,
  initialContextLimit,
}: {
  directory: string;
  modelKey: string | undefined;
  initialContextLimit?: number;
}): SettingsStore {
  const filePath = path.join(directory, CONFIG_FILE_PATH);
  // `--context-limit` wins at start; a limit saved in the settings wins after it, and removing
  // that one (null) falls back to the flag's again.
  let preferFlag = initialContextLimit !== undefined;
  let writing: Promise<unknown> = Promise.resolve();

  async function read() {
    const result = await readConfigFile({ path: filePath });
    if (result.status === "invalid") throw invalidConfig(result.error.message);
    const config = result.config;
    const fileLimit = modelKey === undefined ? undefined : config.models?.[modelKey]?.contextLimit;
    const contextLimit = preferFlag ? initialContextLimit : (fileLimit ?? initialContextLimit);
    const view: SettingsView = {
      strategy: config.strategy ?? "rollover",
      threshold: config.budget?.threshold ?? DEFAULT_THRESHOLD,
      contextLimit: contextLimit ?? null,
      path: filePath,
      explanations: SETTINGS_EXPLANATIONS,
    };
    return { view, config, contextLimit };
  }

  async function writeChange(change: SettingsChange): Promise<SettingsView> {
    if (change.contextLimit !== undefined && modelKey === undefined) {
      throw new ApiError({
        status: 409,
        code: "chat-unavailable",
        message: "A context limit override needs a model: start ctxwin serve with --model or --demo-model.",
      });
    }
    const raw = await readRawConfig(filePath);
    const next: Record<string, unknown> = { ...raw };
    if (change.strategy !== undefined) next["strategy"] = change.strategy;
    if (change.threshold !== undefined) next["budget"] = { ...objectOr(raw["budget"]), threshold: change.threshold };
    if (change.contextLimit !== undefined && modelKey !== undefined) {
      const models = { ...objectOr(raw["models"]) };
      if (change.contextLimit === null) delete models[modelKey];
      else models[modelKey] = { ...objectOr(models[modelKey]), contextLimit: change.contextLimit };
      if (Object.keys(models).length === 0) delete next["models"];
      else next["models"] = models;
      preferFlag = change.contextLimit === null && initialContextLimit !== undefined;
    }
    const text = `${JSON.stringify(next, null, 2)}\n`;
    const checked = parseConfigText({ text, path: filePath });
    if (checked.status === "invalid") throw invalidConfig(checked.error.message);
    await mkdir(path.dirname(filePath), { recursive: true });
    writeFileAtomic({ file: filePath, content: text });
    return (await read()).view;
  }

  return {
    read,
    write(change) {
      // One write at a time, so that two quick changes never lose one another.
      const result = writing.then(() => writeChange(change));
      writing = result.catch(() => undefined);
      return result;
    },
  };
}

async function readRawConfig(filePath: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(filePath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  const checked = parseConfigText({ text, path: filePath });
  if (checked.status === "invalid") throw invalidConfig(checked.error.message);
  return JSON.parse(text.replace(/^\uFEFF/, "")) as Record<string, unknown>;
}

function objectOr(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function invalidConfig(message: string): ApiError {
  return new ApiError({
    status: 409,
    code: "config-invalid",
    message: `${message} Fix or remove the file, then try again.`,
  });
}
