/**
 * UsageView: the active window's budget as the web UI's bar shows it — used / limit, the rollover
 * threshold and the tokens left until it. Built from an agent session's own figure when the server
 * has one for the session, otherwise derived from the stored rows alone (the last reported input
 * tokens plus what the window gained since), so it works for viewing without a model. The limit is
 * the session's own model's (ADR 0080): the server's model and its override stand in only for a
 * session whose rows name no model, and the view says which model the figures are for.
 */
import { budgetBands, DEFAULT_OUTPUT_RESERVE, hardCeilingFor } from "../core/budget/step-budget.js";
import { countRowTokens } from "../core/budget/message-tokens.js";
import { createModelCatalog } from "../core/budget/model-catalog.js";
import { readStepMetadata } from "../core/rollover/step-usage.js";
import { summarizeSpend, type Spend } from "../core/budget/step-spend.js";
import { deriveWindowPressure } from "../core/rollover/window-pressure.js";
import { IMPORTED_SESSION_TYPE } from "../import/transcript-rows.js";
import type { CtxwinConfig } from "../store/config-file.js";
import type { HistoryStore, StoredRow } from "../store/port.js";
import type { UsageView } from "./view-types.js";

export type ModelSource = UsageView["modelSource"];

export interface BudgetSettingsForUsage {
  strategy: "rollover" | "compact" | "off";
  threshold: number;
  outputReserve?: number;
}

/**
 * The view of a window's figure under the given settings.
 *
 * @example usageViewOf({ windowId: "w:0", contextTokens: 5_000, contextLimit: 10_000, settings: { strategy: "rollover", threshold: 0.7 } })
 * // { percent: 50, threshold: 7_000, thresholdPercent: 70, tokensUntilRollover: 2_000, … }
 */
export function usageViewOf({
  windowId,
  contextTokens,
  contextLimit,
  settings,
  spend = null,
  model = null,
  modelSource = model === null ? null : "session",
}: {
  windowId: string;
  contextTokens: number;
  contextLimit: number | undefined;
  settings: BudgetSettingsForUsage;
  spend?: Spend | null;
  model?: string | null;
  modelSource?: ModelSource;
}): UsageView {
  const tokens = Math.max(0, Math.round(contextTokens));
  if (contextLimit === undefined || !(contextLimit > 0)) {
    return {
      windowId,
      contextTokens: tokens,
      contextLimit: null,
      threshold: null,
      hardCeiling: null,
      percent: null,
      thresholdPercent: null,
      tokensUntilRollover: null,
      spend,
      model,
      modelSource,
    };
  }
  const outputReserve = settings.outputReserve ?? DEFAULT_OUTPUT_RESERVE;
  const hardCeiling = hardCeilingFor({ limit: contextLimit, outputReserve });
  const bands =
    settings.strategy === "off"
      ? undefined
      : budgetBands({ limit: contextLimit, threshold: settings.threshold, outputReserve });
  const threshold = bands?.proactive === true ? bands.thresholdAt : null;
  return {
    windowId,
    contextTokens: tokens,
    contextLimit,
    threshold,
    hardCeiling,
    percent: round1((tokens / contextLimit) * 100),
    thresholdPercent: threshold === null ? null : round1((threshold / contextLimit) * 100),
    tokensUntilRollover: threshold === null ? null : Math.max(0, threshold - tokens),
    spend,
    model,
    modelSource,
  };
}

/**
 * The usage of a session's active window from its stored rows. The session's own model decides the
 * limit: the limit its newest step was budgeted against (what the agent really used), else the
 * catalog's (or the configuration's) limit of the model its rows name — the newest step's, or an
 * imported session's. The server's model (`fallbackModelKey`) and its override (`contextLimit`)
 * apply only when the session names no model or names the server's (a view-only server's override,
 * from `--context-limit`, applies to every session): figures measured against
 * another model's limit would say a session is over a threshold it never had (ADR 0080).
 *
 * @example const usage = await usageFromStore({ store, sessionId: "s1", config, settings, contextLimit: undefined });
 */
export async function usageFromStore({
  store,
  sessionId,
  config,
  settings,
  contextLimit,
  fallbackModelKey,
}: {
  store: HistoryStore;
  sessionId: string;
  config: CtxwinConfig;
  settings: BudgetSettingsForUsage;
  /** The override of the server's model. */
  contextLimit: number | undefined;
  /** The server's model. */
  fallbackModelKey?: string | undefined;
}): Promise<UsageView> {
  const window = await store.activeWindow(sessionId);
  const pressure = deriveWindowPressure({
    rows: window.rows,
    rowTokens: (row) => row.tokens ?? countRowTokens(row),
    overheadTokens: 0,
  });
  const spend = summarizeSpend(
    window.rows.flatMap((row) => (row.role === "assistant" ? (readStepMetadata(row) ?? []) : [])),
  );
  const stepLimit = lastStepLimit(window.rows);
  const sessionModel = lastModelKey(window.rows) ?? (await importedModel(store, sessionId));
  // The override is for the server's model; a view-only server's is the person's choice for any session.
  const serverRuns = sessionModel === undefined || fallbackModelKey === undefined || sessionModel === fallbackModelKey;
  const modelKey = sessionModel ?? fallbackModelKey;
  const limit =
    (serverRuns ? contextLimit : undefined) ??
    stepLimit ??
    (modelKey === undefined ? undefined : catalogLimit({ config, modelKey }));
  const modelSource =
    sessionModel !== undefined || stepLimit !== undefined ? "session" : modelKey === undefined ? null : "server";
  return usageViewOf({
    windowId: window.windowId,
    contextTokens: pressure.contextTokens,
    contextLimit: limit,
    settings,
    spend,
    model: modelKey ?? null,
    modelSource,
  });
}

/** The model an imported session's header row names (its first turn's), if any. */
async function importedModel(store: HistoryStore, sessionId: string): Promise<string | undefined> {
  const first = (await store.items(sessionId, { afterSeq: 0, limit: 1, includeCleared: true })).rows[0];
  const model = first?.meta?.["type"] === IMPORTED_SESSION_TYPE ? first.meta["model"] : undefined;
  return typeof model === "string" && model !== "" ? model : undefined;
}

function lastModelKey(rows: readonly StoredRow[]): string | undefined {
  for (let index = rows.length - 1; index >= 0; index -= 1) {
    const row = rows[index];
    if (row === undefined || row.role !== "assistant") continue;
    const model = readStepMetadata(row)?.model;
    if (model !== undefined && model !== "unknown") return model;
  }
  return undefined;
}

/** The limit the newest step was budgeted against (models the catalog does not know: local servers, the demo model). */
function lastStepLimit(rows: readonly StoredRow[]): number | undefined {
  for (let index = rows.length - 1; index >= 0; index -= 1) {
    const row = rows[index];
    if (row?.role !== "assistant") continue;
    const limit = readStepMetadata(row)?.contextLimit;
    if (limit !== undefined) return limit;
  }
  return undefined;
}

function catalogLimit({ config, modelKey }: { config: CtxwinConfig; modelKey: string }): number | undefined {
  try {
    const found = createModelCatalog({ overrides: config.models ?? {} }).lookup(modelKey);
    return found.status === "found" ? found.contextLimit : undefined;
  } catch {
    // A model key the catalog cannot read has no known limit: the bar shows tokens only.
    return undefined;
  }
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
