/**
 * `session.usage()`: the active window's pressure as a budget bar shows it, derived from stored
 * rows (the same figure the next send starts from).
 */
import type { LanguageModel } from "ai";
import { deriveWindowPressure } from "../core/rollover/window-pressure.js";
import { overheadTokens, rowRequestTokens } from "./request-assembly.js";
import { contextLimitFor, requestFrame, toolOutputLimits, type SessionContext } from "./session-context.js";
import type { SessionUsage } from "./session-types.js";

/**
 * @example
 * const { percent } = await readSessionUsage(context, model);
 */
export async function readSessionUsage(context: SessionContext, model: LanguageModel): Promise<SessionUsage> {
  const window = await context.store.activeWindow(context.sessionId);
  context.calibration.seedOnce(window.rows);
  const frame = await requestFrame(context, model);
  const limits = toolOutputLimits(context, model);
  const pressure = deriveWindowPressure({ rows: window.rows, rowTokens: (row) => rowRequestTokens(row, frame, limits), overheadTokens: overheadTokens(frame), calibrationFactor: frame.calibrationFactor });
  const limit = contextLimitFor(context, model);
  const strategy = context.strategy;
  if (limit === undefined) return { windowId: window.windowId, contextTokens: pressure.contextTokens, contextLimit: undefined, threshold: undefined, hardCeiling: undefined, percent: undefined, strategy };
  const evaluation = context.policy.evaluate({ moment: "on-send", projected: pressure.contextTokens, contextLimit: limit, warningEmitted: true });
  return {
    windowId: window.windowId,
    strategy,
    contextTokens: pressure.contextTokens,
    contextLimit: limit,
    // Strategy `off` never acts before the hard ceiling.
    threshold: strategy === "off" ? undefined : evaluation.rolloverAt,
    hardCeiling: evaluation.hardCeiling,
    percent: (pressure.contextTokens / limit) * 100,
  };
}
