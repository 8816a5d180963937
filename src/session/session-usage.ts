/**
 * `session.usage()`: the active window's pressure as a budget bar shows it, derived from stored
 * rows (the same figure the next send starts from).
 */
import type { LanguageModel } from "ai";
import { deriveWindowPressure } from "../core/rollover/window-pressure.js";
import { readStepMetadata } from "../core/rollover/step-usage.js";
import { stepSpend, summarizeSpend, type Spend } from "../core/budget/step-spend.js";
import type { StoredRow } from "../store/port.js";
import { overheadTokens, rowRequestTokens } from "./request-assembly.js";
import { contextLimitFor, requestFrame, toolOutputLimits, type SessionContext } from "./session-context.js";
import type { RequestSpend, SessionUsage } from "./session-types.js";

/**
 * @example
 * const { percent } = await readSessionUsage(context, model);
 */
export async function readSessionUsage(context: SessionContext, model: LanguageModel): Promise<SessionUsage> {
  const window = await context.store.activeWindow(context.sessionId);
  context.calibration.seedOnce(window.rows);
  const frame = await requestFrame(context, model);
  const limits = toolOutputLimits(context, model);
  const pressure = deriveWindowPressure({
    rows: window.rows,
    rowTokens: (row) => rowRequestTokens(row, frame, limits),
    overheadTokens: overheadTokens(frame),
    calibrationFactor: frame.calibrationFactor,
  });
  const limit = contextLimitFor(context, model);
  const strategy = context.strategy;
  const spend = windowSpend(window.rows);
  if (limit === undefined)
    return {
      windowId: window.windowId,
      contextTokens: pressure.contextTokens,
      contextLimit: undefined,
      threshold: undefined,
      hardCeiling: undefined,
      percent: undefined,
      strategy,
      window: spend,
    };
  const evaluation = context.policy.evaluate({
    moment: "on-send",
    projected: pressure.contextTokens,
    contextLimit: limit,
    warningEmitted: true,
  });
  return {
    windowId: window.windowId,
    strategy,
    contextTokens: pressure.contextTokens,
    contextLimit: limit,
    // Strategy `off` never acts before the hard ceiling.
    threshold: strategy === "off" ? undefined : evaluation.rolloverAt,
    hardCeiling: evaluation.hardCeiling,
    percent: (pressure.contextTokens / limit) * 100,
    window: spend,
  };
}

/**
 * The tokens and cost of the requests whose steps `rows` holds.
 *
 * @example windowSpend(window.rows).cachedShare // 0.9
 */
export function windowSpend(rows: readonly StoredRow[]): Spend {
  return summarizeSpend(rows.flatMap((row) => (row.role === "assistant" ? (readStepMetadata(row) ?? []) : [])));
}

/**
 * What the request a stored step answered spent (the `usage` event's figures).
 *
 * @example requestSpend(step.row).costUsd
 */
export function requestSpend(row: StoredRow): RequestSpend {
  const metadata = readStepMetadata(row);
  const spent = metadata === undefined ? undefined : stepSpend(metadata);
  const usage = spent?.usage;
  return {
    cacheReadTokens: usage?.cacheReadTokens ?? 0,
    cacheWriteTokens: usage?.cacheWriteTokens ?? 0,
    cachedShare:
      usage === undefined || usage.inputTokens <= 0 ? 0 : Math.min(1, usage.cacheReadTokens / usage.inputTokens),
    costUsd: spent?.cost?.usd ?? null,
  };
}
