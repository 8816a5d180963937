/**
 * The budget settings a timeline's lines are drawn for. Rows store each request's limit, not the
 * threshold or output reserve: those come from the project's configuration.
 */
import { DEFAULT_OUTPUT_RESERVE, DEFAULT_THRESHOLD } from "../budget/step-budget.js";
import type { TimelineSettings } from "./timeline-types.js";

/** The fields of a project configuration (`.ctxwin/config.json`) the timeline reads. */
export interface TimelineConfig {
  strategy?: "rollover" | "compact" | "off";
  budget?: { threshold?: number; outputReserve?: number };
}

/**
 * The configuration's settings, else the defaults.
 *
 * @example timelineSettingsOf({ budget: { threshold: 0.6 } }) // { strategy: "rollover", threshold: 0.6, outputReserve: 8192 }
 */
export function timelineSettingsOf(config: TimelineConfig): TimelineSettings {
  return {
    strategy: config.strategy ?? "rollover",
    threshold: config.budget?.threshold ?? DEFAULT_THRESHOLD,
    outputReserve: config.budget?.outputReserve ?? DEFAULT_OUTPUT_RESERVE,
  };
}
