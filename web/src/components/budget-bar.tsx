/**
 * The active window's budget: used / limit, the rollover threshold as a marker on the bar, the
 * countdown in tokens, and what the window's requests spent (cached share, estimated cost). It
 * follows the `usage` events while a turn streams.
 */
import type { UsageView } from "../api/types";
import { budgetFigures, budgetModelLine, spendLine } from "../format";

/** @example <BudgetBar usage={usage} /> */
export function BudgetBar({ usage }: { usage: UsageView }) {
  const figures = budgetFigures({ usage });
  const spend = spendLine(usage.spend);
  const model = budgetModelLine(usage);
  return (
    <section className={`budget budget-${figures.state}`} aria-label="Context budget of the active window">
      <div className="budget-text">
        <span className="budget-summary" data-testid="budget-summary">
          {figures.summary}
        </span>
        <span className="budget-countdown" data-testid="budget-countdown">
          {figures.countdown}
        </span>
        {model === undefined ? null : (
          <span
            className={`budget-model${usage.modelSource === "server" ? " budget-model-stand-in" : ""}`}
            data-testid="budget-model"
          >
            {model}
          </span>
        )}
        {spend === undefined ? null : (
          <span
            className="budget-spend"
            data-testid="budget-spend"
            title="Input read from the provider's prompt cache, and the estimated cost of this window's requests at public prices"
          >
            {spend}
          </span>
        )}
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
          {figures.thresholdPercent === undefined ? null : (
            <div
              className="budget-threshold"
              style={{ left: `${figures.thresholdPercent}%` }}
              title="Rollover threshold"
            />
          )}
        </div>
      )}
    </section>
  );
}
