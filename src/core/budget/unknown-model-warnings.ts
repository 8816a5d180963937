/**
 * One warning per model whose limit is unknown: the session makes no rollover decision for it,
 * and says so once instead of on every step.
 */

/** Anything that names an unknown model: a catalog `UnknownModel` or a preflight `unknown-limit`. */
export interface UnknownModelNotice {
  key: string;
  message: string;
}

export interface UnknownModelWarner {
  /** Logs the notice's message the first time its key is seen; returns whether it logged. */
  warn(notice: UnknownModelNotice): boolean;
}

/**
 * @example
 * const warner = createUnknownModelWarner({ log: (message) => console.warn(message) });
 * const lookup = lookupModel({ model });
 * if (lookup.status === "unknown") warner.warn(lookup);
 */
export function createUnknownModelWarner({ log }: { log: (message: string) => void }): UnknownModelWarner {
  const warned = new Set<string>();
  return {
    warn(notice) {
      if (warned.has(notice.key)) return false;
      warned.add(notice.key);
      log(notice.message);
      return true;
    },
  };
}
