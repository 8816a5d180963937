/**
 * Collects what one `send` did across its turns (the input and every continuation it queued)
 * into the result the caller receives.
 */
import type { CompactionInfo, RolloverInfo, SendResult, StepUsageSummary, WarningInfo } from "./session-types.js";
import type { StoredStep } from "./step-recorder.js";

/**
 * @example
 * const collector = createSendCollector(); collector.addSteps(run.steps, run.text); collector.result();
 */
export function createSendCollector() {
  const rollovers: RolloverInfo[] = [];
  const warnings: WarningInfo[] = [];
  const compactions: CompactionInfo[] = [];
  const usage: StepUsageSummary & { steps: number } = {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    steps: 0,
  };
  let text = "";
  let turns = 0;
  let ending: Pick<SendResult, "status" | "reason" | "error"> | undefined;
  return {
    addRollover(rollover: RolloverInfo): void {
      rollovers.push(rollover);
    },
    addCompaction(compaction: CompactionInfo): void {
      compactions.push(compaction);
    },
    addWarning(warning: WarningInfo): void {
      warnings.push(warning);
    },
    addTurn(steps: readonly StoredStep[], turnText: string): void {
      turns += 1;
      for (const step of steps) {
        usage.inputTokens += step.usage.inputTokens;
        usage.outputTokens += step.usage.outputTokens;
        usage.cacheReadTokens += step.usage.cacheReadTokens;
        usage.cacheWriteTokens += step.usage.cacheWriteTokens;
        usage.steps += 1;
      }
      if (turnText.length > 0) text = turnText;
    },
    get turns(): number {
      return turns;
    },
    /** The send ends here with this status (the first ending wins). */
    end(outcome: Pick<SendResult, "status" | "reason" | "error">): void {
      ending ??= outcome;
    },
    get ended(): boolean {
      return ending !== undefined;
    },
    /** How the send ends, once it has ended. */
    get status(): SendResult["status"] | undefined {
      return ending?.status;
    },
    result(): SendResult {
      const outcome = ending ?? { status: "completed" as const };
      return {
        status: outcome.status,
        text,
        rollovers: [...rollovers],
        warnings: [...warnings],
        compactions: [...compactions],
        usage: { ...usage },
        ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
        ...(outcome.error === undefined ? {} : { error: outcome.error }),
      };
    },
  };
}

export type SendCollector = ReturnType<typeof createSendCollector>;
