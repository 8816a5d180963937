/**
 * `ctxwin eval`: runs the eval suites with each strategy on the same items, model and context
 * limit (docs/eval.md). States the estimated cost first and needs `--yes` above `--max-cost` (or
 * when the price is unknown); writes each result to `--out` as it finishes; `--resume` continues
 * a killed run; prints the comparison table at the end; `--html` also writes the run as a page.
 * `--report <results>` runs nothing: it prints a results file's table (and page).
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { Command } from "commander";
import { ModelConfigError, parseContextLimit, parseMaxRetries, resolveModel } from "../../agent/model-flags.js";
import { priceOf, type ModelPrice } from "../../eval/cost.js";
import { EvalSetupError } from "../../eval/eval-errors.js";
import { parseStrategies, planItems } from "../../eval/plan-items.js";
import {
  EvalResultsError,
  openResultsFile,
  readResultsFile,
  resultKey,
  type RunHeader,
} from "../../eval/results-file.js";
import { estimatePlan, planRuns, runEval } from "../../eval/run-eval.js";
import { createScriptedEvalModel } from "../../eval/scripted/scripted-eval-model.js";
import { formatSummaryTable, summarize } from "../../eval/summary-table.js";
import { describeFailure } from "../chat/describe-failure.js";
import { FAILURE_EXIT_CODE, USAGE_EXIT_CODE } from "../command-line.js";
import { checkPageTarget, reportResults, writeEvalPage } from "./eval-page.js";
import { createEvalProgress } from "./eval-progress.js";

export interface EvalFlags {
  model?: string;
  baseUrl?: string;
  strategy?: string;
  suite?: string;
  contextLimit?: string;
  limit?: string;
  concurrency?: string;
  /** Default `ctxwin-eval.jsonl`. */
  out?: string;
  resume?: boolean;
  yes?: boolean;
  maxCost?: string;
  data?: string;
  seed?: string;
  maxRetries?: string;
  html?: string;
  report?: string;
  /** The project folder the relative files (`--out`, `--data`, `--html`, `--report`) are in; default the current one. */
  dir?: string;
}

export const DEFAULT_EVAL_CONTEXT_LIMIT = 16_000;
export const DEFAULT_RESULTS_FILE = "ctxwin-eval.jsonl";
const DEFAULT_MAX_COST_USD = 1;

function wholeNumber(
  text: string | undefined,
  flag: string,
  { fallback, min, max }: { fallback: number; min: number; max: number },
): number {
  if (text === undefined) return fallback;
  const value = /^\d{1,9}$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max))
    throw new EvalSetupError(`bad ${flag} '${text}': expected a whole number from ${min} to ${max}.`);
  return value;
}

function dollars(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_COST_USD;
  const value = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value))
    throw new EvalSetupError(`bad --max-cost '${text}': expected US dollars, e.g. --max-cost 0.5.`);
  return value;
}

interface EvalModel {
  model: LanguageModelV4;
  label: string;
  price?: ModelPrice;
  demo: boolean;
  describeError: (error: unknown) => string;
}

function evalModel(flags: EvalFlags, contextLimit: number): EvalModel {
  if (flags.model === "demo" && flags.baseUrl === undefined) {
    return {
      model: createScriptedEvalModel(),
      label: "demo (ctxwin's scripted eval model)",
      price: { inputPerMillion: 0, outputPerMillion: 0 },
      demo: true,
      describeError: (error) => describeFailure({ error }),
    };
  }
  const resolved = resolveModel({
    ...(flags.model === undefined ? {} : { model: flags.model }),
    ...(flags.baseUrl === undefined ? {} : { baseUrl: flags.baseUrl }),
    contextLimit,
  });
  if (typeof resolved.model === "string" || resolved.model.specificationVersion !== "v4")
    throw new ModelConfigError(`--model ${resolved.label} is not an AI SDK v4-specification language model.`);
  const keyVariable = resolved.keyVariable ?? "CTXWIN_API_KEY";
  const price = priceOf({ modelKey: resolved.label });
  return {
    model: resolved.model,
    label: resolved.label,
    ...(price === undefined ? {} : { price }),
    demo: false,
    describeError: (error) =>
      describeFailure({
        error,
        ...(resolved.baseUrl === undefined ? {} : { serverUrl: resolved.baseUrl }),
        keyVariable,
      }),
  };
}

/** The header a resumed file must match: the same model, limit and seed draw the same items. */
function checkResumable(found: RunHeader, wanted: RunHeader, file: string): void {
  for (const field of ["model", "contextLimit", "seed"] as const) {
    if (found[field] !== wanted[field]) {
      throw new EvalResultsError(
        `cannot resume ${file}: it was run with ${field} ${String(found[field])}, not ${String(wanted[field])}; pass the same flags, or another --out.`,
      );
    }
  }
}

const FILE_FLAGS = ["out", "data", "html", "report"] as const;

/** The flags with `--dir` applied: each relative file flag resolved in that folder, which must exist. */
function inProject(flags: EvalFlags): EvalFlags {
  const folder = flags.dir;
  if (folder === undefined) return flags;
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new EvalSetupError(`--dir ${folder} is not a folder.`);
  const resolved: EvalFlags =
    flags.report === undefined ? { ...flags, out: flags.out ?? DEFAULT_RESULTS_FILE } : { ...flags };
  for (const flag of FILE_FLAGS) {
    const file = resolved[flag];
    if (file !== undefined) resolved[flag] = path.resolve(folder, file);
  }
  return resolved;
}

/**
 * @example await runEvalCommand({ model: "demo", limit: "5", out: "results.jsonl" });
 */
export async function runEvalCommand(
  given: EvalFlags,
  streams: { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream } = process,
): Promise<number> {
  const say = (line: string) => streams.stderr.write(`${line}\n`);
  try {
    const flags = inProject(given);
    if (flags.report !== undefined) {
      reportResults({ flags: { ...flags, report: flags.report }, stdout: streams.stdout });
      return 0;
    }
    const out = flags.out ?? DEFAULT_RESULTS_FILE;
    checkPageTarget({ html: flags.html, results: out });
    const contextLimit =
      flags.contextLimit === undefined ? DEFAULT_EVAL_CONTEXT_LIMIT : parseContextLimit(flags.contextLimit);
    const strategies = parseStrategies(flags.strategy);
    const limit = wholeNumber(flags.limit, "--limit", { fallback: 5, min: 1, max: 1_000 });
    const concurrency = wholeNumber(flags.concurrency, "--concurrency", { fallback: 1, min: 1, max: 32 });
    const seed = wholeNumber(flags.seed, "--seed", { fallback: 33, min: 0, max: 4_294_967_295 });
    const maxCost = dollars(flags.maxCost);
    const maxRetries = flags.maxRetries === undefined ? 4 : parseMaxRetries(flags.maxRetries);
    const plan = planItems({
      ...(flags.suite === undefined ? {} : { suites: flags.suite }),
      contextLimit,
      limit,
      seed,
      ...(flags.data === undefined ? {} : { dataFile: flags.data }),
    });
    const model = evalModel(flags, contextLimit);
    const header: RunHeader = {
      type: "run",
      version: 1,
      model: model.label,
      contextLimit,
      seed,
      startedAt: new Date().toISOString(),
    };
    const resuming = flags.resume === true && existsSync(out);
    if (!resuming && flags.resume !== true && existsSync(out)) {
      throw new EvalResultsError(`${out} already holds results: pass --resume to continue that run, or another --out.`);
    }
    const earlier = resuming ? readResultsFile(out) : undefined;
    if (earlier !== undefined) checkResumable(earlier.header, header, out);
    const done = new Set((earlier?.results ?? []).filter((result) => result.status !== "failed").map(resultKey));
    const runs = planRuns({ items: plan.items, strategies, done });
    for (const suite of plan.skipped) say(`skipped suite ${suite}`);
    const estimate = estimatePlan({ runs, contextLimit, price: model.price });
    const cost =
      estimate.costUsd === undefined
        ? "cost unknown (no price for this model)"
        : `about $${estimate.costUsd.toFixed(2)}`;
    say(
      `${runs.length} runs (${plan.items.length} items ` +
        `× ${strategies.join(", ")}${done.size > 0 ? `, ${done.size} already done` : ""}) ` +
        `on ${model.label}, context limit ${contextLimit.toLocaleString("en-US")}: ` +
        `about ${estimate.inputTokens.toLocaleString("en-US")} input ` +
        `and ${estimate.outputTokens.toLocaleString("en-US")} output tokens, ${cost}.`,
    );
    if (flags.yes !== true && !model.demo && runs.length > 0) {
      if (estimate.costUsd === undefined)
        throw new EvalSetupError(
          "the price of this model is unknown, so the cost cannot be checked against --max-cost: pass --yes to run it.",
        );
      if (estimate.costUsd > maxCost)
        throw new EvalSetupError(
          `the estimate ($${estimate.costUsd.toFixed(2)}) is above --max-cost $${maxCost.toFixed(2)}: pass --yes to run it, or a smaller --limit.`,
        );
    }
    const writer = openResultsFile({ file: out, header, resume: resuming });
    const progress = createEvalProgress({ total: runs.length, stream: streams.stderr });
    const outcome = await runEval({
      runs,
      model: model.model,
      contextLimit,
      concurrency,
      maxRetries,
      describeError: model.describeError,
      ...(model.price === undefined ? {} : { price: model.price }),
      onResult: (result) => {
        writer.append(result);
        progress.update(result);
      },
    });
    progress.stop();
    streams.stdout.write(`${formatSummaryTable(summarize(readResultsFile(out).results))}\n\nresults: ${out}\n`);
    if (flags.html !== undefined) {
      writeEvalPage({ results: out, html: flags.html });
      streams.stdout.write(`page: ${flags.html}\n`);
    }
    if (outcome.stopped !== undefined) {
      say(`ctxwin eval: stopped: ${outcome.stopped}; fix it and run again with --resume.`);
      return FAILURE_EXIT_CODE;
    }
    const failed = outcome.results.filter((result) => result.status === "failed").length;
    if (failed > 0) {
      say(
        `ctxwin eval: ${failed} of ${outcome.results.length} runs failed (see "error" in ${out}); run again with --resume to retry them.`,
      );
      return FAILURE_EXIT_CODE;
    }
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    say(`ctxwin eval: ${message.split("\n")[0] ?? message}`);
    return ModelConfigError.isInstance(error) || EvalSetupError.isInstance(error) ? USAGE_EXIT_CODE : FAILURE_EXIT_CODE;
  }
}

/**
 * @example registerEvalCommand({ program });
 */
export function registerEvalCommand({ program }: { program: Command }): void {
  program
    .command("eval")
    .description("measure rollover against compaction and truncation on your own model (docs/eval.md)")
    .option(
      "--model <model>",
      "provider:id (openai:gpt-4.1-mini), a model id with --base-url, or 'demo' (offline, scripted)",
    )
    .option("--base-url <url>", "an OpenAI-compatible server (Ollama, llama.cpp, vLLM)")
    .option("--strategy <list>", "strategies to compare: rollover,compact,off (default: all)")
    .option("--suite <list>", "suites to run: continuity,recall-qa,needle (default: all; recall-qa needs --data)")
    .option(
      "--context-limit <tokens>",
      `the context limit every strategy runs with (default ${DEFAULT_EVAL_CONTEXT_LIMIT})`,
    )
    .option("--limit <n>", "items per suite (default 5)")
    .option("--concurrency <n>", "items run at the same time (default 1)")
    .option("--out <file>", `results file, one JSON line per item (default ${DEFAULT_RESULTS_FILE})`)
    .option("--resume", "continue the run in --out: skip items already done")
    .option("--yes", "run even when the estimate is above --max-cost or the price is unknown")
    .option("--max-cost <usd>", `budget in US dollars above which --yes is needed (default ${DEFAULT_MAX_COST_USD})`)
    .option("--data <file>", "recall-qa: a LoCoMo-format JSON file")
    .option("--seed <n>", "seed of the generated items (default 33)")
    .option(
      "--max-retries <n>",
      "retries of a failed model call (429s, dropped connections) before the item fails (default 4)",
    )
    .option("--html <file>", "also write the run as a self-contained HTML page (charts, table, items)")
    .option("--report <results>", "run nothing: print the table of this results file (and its page with --html)")
    .option(
      "--dir <project>",
      "the folder relative --out, --data, --html and --report files are in (default: the current directory)",
    )
    .action(async (flags: EvalFlags) => {
      process.exitCode = await runEvalCommand(flags);
    });
}
