/**
 * From the names people type (`--suite`, `--strategy`, `--context-limit`, `--data`) to the items
 * of a run. Every refusal is an `EvalSetupError` with one line that says what to do.
 */
import { EvalSetupError } from "./eval-errors.js";
import { STRATEGIES, SUITE_NAMES, type EvalItem, type EvalStrategy, type SuiteName } from "./eval-types.js";
import { continuityItems } from "./suites/continuity.js";
import { readLocomoFile } from "./suites/locomo-file.js";
import { needleItems } from "./suites/needle.js";
import { recallQaItems } from "./suites/recall-qa.js";

/**
 * Smallest context limit the suites accept: below it the system prompt, the tools and one fed
 * message (15% of the limit) leave no room to answer.
 */
export const MINIMUM_EVAL_CONTEXT_LIMIT = 4_096;
function parseList<Name extends string>(
  text: string | undefined,
  known: readonly Name[],
  flag: string,
): Name[] | undefined {
  if (text === undefined) return undefined;
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  const unknown = names.find((name) => !(known as readonly string[]).includes(name));
  if (unknown !== undefined || names.length === 0)
    throw new EvalSetupError(`bad ${flag} '${text}': expected a comma-separated list of ${known.join(", ")}.`);
  return [...new Set(names)] as Name[];
}

/** `--strategy rollover,compact` → the strategies (default: all three). */
export function parseStrategies(text: string | undefined): EvalStrategy[] {
  return parseList(text, STRATEGIES, "--strategy") ?? [...STRATEGIES];
}

export interface ItemPlan {
  items: EvalItem[];
  /** Suites left out, with why (recall-qa without data when no suite was named). */
  skipped: string[];
}

/**
 * @example const { items, skipped } = planItems({ suites: "needle", contextLimit: 16_000, limit: 5, seed: 33 });
 */
export function planItems({
  suites,
  contextLimit,
  limit,
  seed,
  dataFile,
}: {
  suites?: string;
  contextLimit: number;
  limit: number;
  seed: number;
  dataFile?: string;
}): ItemPlan {
  const named = parseList(suites, SUITE_NAMES, "--suite");
  if (contextLimit < MINIMUM_EVAL_CONTEXT_LIMIT) {
    throw new EvalSetupError(
      `--context-limit ${contextLimit} is too small for the eval suites: they need at least ${MINIMUM_EVAL_CONTEXT_LIMIT} tokens (e.g. --context-limit 16k).`,
    );
  }
  const chosen: SuiteName[] = named ?? [...SUITE_NAMES];
  const items: EvalItem[] = [];
  const skipped: string[] = [];
  for (const suite of chosen) {
    if (suite === "continuity") items.push(...continuityItems({ contextLimit, limit, seed }));
    if (suite === "needle") items.push(...needleItems({ contextLimit, limit, seed }));
    if (suite !== "recall-qa") continue;
    const file = dataFile;
    if (file === undefined) {
      if (named !== undefined)
        throw new EvalSetupError(
          "suite recall-qa needs a LoCoMo-format file: pass --data <file> (e.g. locomo10.json from the LoCoMo release).",
        );
      skipped.push("recall-qa (no --data file)");
      continue;
    }
    items.push(...recallQaItems({ conversations: readLocomoFile(file), contextLimit, limit, seed }));
  }
  return { items, skipped };
}
