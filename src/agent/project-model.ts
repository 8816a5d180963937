/**
 * The model of a command run in a project: `.ctxwin/config.json` is read first (its model limits
 * join the catalog, its warnings go to `onWarning`), then the flags are resolved. `ctxwin chat` and
 * `ctxwin serve --model` share it.
 */
import { createModelCatalog } from "../core/budget/model-catalog.js";
import { readConfigFile, type CtxwinConfig } from "../store/config-file.js";
import { resolveModel, type ResolvedModel } from "./model-flags.js";

/**
 * Throws the configuration file's error when it cannot be used, or a `ModelConfigError`.
 *
 * @example const { resolved, config } = await resolveProjectModel({ directory: ".", model: "openai:gpt-4.1-mini", onWarning: console.error });
 */
export async function resolveProjectModel({
  directory,
  model,
  baseUrl,
  contextLimit,
  env = process.env,
  onWarning,
}: {
  directory: string;
  model?: string | undefined;
  baseUrl?: string | undefined;
  contextLimit?: number | undefined;
  env?: NodeJS.ProcessEnv;
  onWarning: (message: string) => void;
}): Promise<{ resolved: ResolvedModel; config: CtxwinConfig }> {
  const file = await readConfigFile({ directory });
  if (file.status === "invalid") throw file.error;
  for (const warning of file.warnings) onWarning(warning);
  const resolved = resolveModel({
    ...(model === undefined ? {} : { model }),
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(contextLimit === undefined ? {} : { contextLimit }),
    env,
    catalog: createModelCatalog({ overrides: file.config.models ?? {} }),
  });
  return { resolved, config: file.config };
}
