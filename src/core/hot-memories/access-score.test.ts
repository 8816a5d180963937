import { describe, expect, it } from "vitest";
import { decayedScore, recordAccess } from "./access-score.js";

const DAY = 86_400_000;
const halfLifeMs = 7 * DAY;

describe("access score", () => {
  it("halves every half-life and is 0 for a file never accessed", () => {
    const record = recordAccess({ record: undefined, now: 0, halfLifeMs });
    expect(record).toEqual({ count: 1, score: 1, scoreAt: 0, lastAccessAt: 0 });
    expect(decayedScore({ record, now: 7 * DAY, halfLifeMs })).toBeCloseTo(0.5, 12);
    expect(decayedScore({ record, now: 21 * DAY, halfLifeMs })).toBeCloseTo(0.125, 12);
    expect(decayedScore({ record: undefined, now: 0, halfLifeMs })).toBe(0);
  });

  it("adds a fresh access to the decayed score and counts every access", () => {
    const first = recordAccess({ record: undefined, now: 0, halfLifeMs });
    const second = recordAccess({ record: first, now: 7 * DAY, halfLifeMs });
    expect(second.count).toBe(2);
    expect(second.score).toBeCloseTo(1.5, 12);
    expect(second.lastAccessAt).toBe(7 * DAY);
  });

  it("does not grow the score when the clock goes backwards", () => {
    const first = recordAccess({ record: undefined, now: 10 * DAY, halfLifeMs });
    expect(decayedScore({ record: first, now: 3 * DAY, halfLifeMs })).toBe(1);
    expect(recordAccess({ record: first, now: 3 * DAY, halfLifeMs }).scoreAt).toBe(10 * DAY);
  });
});
