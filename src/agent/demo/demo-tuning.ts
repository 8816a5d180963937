/**
 * Budget and tool settings that let the scripted demo model show warnings and notes at small
 * context limits (ADR 0013). `ctxwin demo` and `ctxwin serve --demo-model` both use them.
 */
import type { SessionBudgetOptions } from "../../session/session-types.js";
import type { WorkspaceToolLimits } from "../../tools/workspace/limits.js";

/** Below this limit the pinned notes and one history page leave the demo agent no room to work. */
export const DEMO_MINIMUM_CONTEXT_LIMIT = 12_000;

/**
 * The rollover threshold of `ctxwin demo` (the library default is 0.7): the force band (65%) then
 * lies below the hard ceiling (75% at 16k), so the notes-flush step before a mid-turn rollover fits
 * (ADR 0024); at 0.7 and limits up to ~33k the two coincide. `serve --demo-model` keeps the
 * project's settings.
 */
export const DEMO_THRESHOLD = 0.6;

/**
 * @example demoTuning({ contextLimit: 16_000 }) // { budget: { warningTurnTokens: 960 }, toolLimits: { maxReadChars: 4_000 } }
 */
export function demoTuning({ contextLimit }: { contextLimit: number }): {
  budget: SessionBudgetOptions;
  toolLimits: WorkspaceToolLimits;
} {
  return {
    // The warning turn must fit under the hard ceiling at small limits (ADR 0006), and one read must
    // be smaller than the band in which a warning still fits, or a step can jump over it.
    budget: { warningTurnTokens: Math.min(2_500, Math.round(contextLimit * 0.06)) },
    toolLimits: { maxReadChars: Math.min(12_000, Math.round(contextLimit * 0.25)) },
  };
}
