/**
 * The active window's budget: used / limit, the rollover threshold as a marker on the bar, and the
 * countdown in tokens. It follows the `usage` events while a turn streams.
 */
import type { UsageView } from "../api/types";
import { budgetFigures } from "../format";

/** @example <BudgetBar usage={usage} /> */
export function BudgetBar({ usage }: { usage: UsageView }) {
  const figures = budgetFigures({ usage });
  return (
    <section className={`budget budget-${figures.state}`} aria-label="Context budget of the active window">
      <div className="budget-text">
        <span className="budget-summary" data-testid="budget-summary">
          {figures.summary}
        </span>
        <span className="budget-countdown" data-testid="budget-countdown">
          {figures.countdown}
        </span>
      </div>
      {figures.usedPercent === undefined ? null : (
        <div
          className="budget-track"
          role="meter"
          aria-label="Tokens used in the active window"
          aria-valuemin={0}
          aria-valuemax={usage.contextLimit ?? 0}
          aria-valuenow={usage.contextTokens}
          aria-valuetext={`${figures.summary}; ${figures.countdown}`}
        >
          <div className="budget-fill" style={{ width: `${figures.usedPercent}%` }} />
          {figures.thresholdPercent === undefined ? null : <div className="budget-threshold" style={{ left: `${figures.thresholdPercent}%` }} title="Rollover threshold" />}
        </div>
      )}
    </section>
  );
}
