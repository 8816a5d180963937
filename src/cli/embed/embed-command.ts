/**
 * `ctxwin embed --embedding-model <provider:id>`: embeds every row of a project's store (or of
 * the sessions named) that this model has not embedded yet, with a progress bar (ADR 0063).
 * Progress is stored with the vectors, so a killed run resumes where it stopped, and a second run
 * of a fully embedded store sends nothing.
 */
import cliProgress from "cli-progress";
import type { Command } from "commander";
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { CtxwinError, errorClass } from "../../core/errors.js";
import { resolveEmbeddingModel, type EmbeddingFlags } from "../../agent/embedding-flags.js";
import { openStore } from "../../store/open-store.js";
import type { EmbeddingProgress, HistoryStore } from "../../store/port.js";
import { STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag, storeOptionsOf } from "../store-flag.js";
import { failureLine, processOutput, type CommandOutput, type CommandRegistration } from "../command-output.js";
import { AGENT_FLAGS } from "../agent-flags.js";

export interface EmbedOutput extends CommandOutput {
  /** Draw a progress bar (default: when stderr is a terminal). */
  progressBar?: boolean;
}

interface EmbedFlags {
  dir?: string;
  store?: string;
  session?: string[];
  embeddingModel?: string;
  embeddingBaseUrl?: string;
  json?: boolean;
}

/** An expected failure of `ctxwin embed`: one line on stderr, exit code 2. */
class EmbedCommandError extends errorClass("EmbedCommandError") {}

function progressReporter(output: EmbedOutput): ((progress: EmbeddingProgress) => void) | undefined {
  if (!(output.progressBar ?? process.stderr.isTTY === true)) return undefined;
  const bar = new cliProgress.SingleBar(
    {
      format: "embedding {bar} {value}/{total} rows | {sessionsDone}/{sessions} sessions",
      stream: process.stderr,
      clearOnComplete: true,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return (progress) => {
    const total = progress.embeddedRows + progress.pendingRows;
    if (!started)
      bar.start(total, progress.embeddedRows, { sessions: progress.sessions, sessionsDone: progress.sessionsDone });
    started = true;
    bar.setTotal(total);
    bar.update(progress.embeddedRows, { sessions: progress.sessions, sessionsDone: progress.sessionsDone });
    if (progress.sessionsDone === progress.sessions) bar.stop();
  };
}

/**
 * Adds `embed` to a commander program. `embeddingModelOf` turns the flags into a model (tests pass an offline one).
 *
 * @example registerEmbedCommand({ program: new Command("ctxwin") });
 */
export function registerEmbedCommand({
  program,
  output = processOutput,
  embeddingModelOf = resolveEmbeddingModel,
}: CommandRegistration<EmbedOutput> & {
  embeddingModelOf?: (flags: EmbeddingFlags) => EmbeddingModelV4 | undefined;
}): Command {
  return program
    .command("embed")
    .description(
      "Embed the rows of a store for hybrid and semantic search (resumable; rows already embedded are skipped)",
    )
    .requiredOption("--embedding-model <provider:id>", "openai:<id>, google:<id>, or <id> with --embedding-base-url")
    .option(...AGENT_FLAGS.embeddingBaseUrl)
    .option("--dir <project>", "project directory holding .ctxwin/ctxwin.db (default: the current directory)")
    .option(STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag)
    .option("--session <id...>", "only these sessions (default: every session)")
    .option("--json", "print the counts as JSON")
    .showHelpAfterError(false)
    .action(async (flags: EmbedFlags) => {
      let store: HistoryStore | undefined;
      try {
        const model = embeddingModelOf({
          embeddingModel: flags.embeddingModel,
          embeddingBaseUrl: flags.embeddingBaseUrl,
        });
        if (model === undefined) throw new EmbedCommandError("--embedding-model is required.");
        const warnings: string[] = [];
        store = openStore({
          ...storeOptionsOf({ store: flags.store, directory: flags.dir ?? process.cwd() }),
          embeddings: { model, onWarning: (message) => warnings.push(message) },
        });
        const embeddings = store.embeddings;
        if (embeddings === undefined) throw new EmbedCommandError("this store cannot keep vectors.");
        const onProgress = flags.json === true ? undefined : progressReporter(output);
        const result = await embeddings.backfill({
          ...(flags.session === undefined ? {} : { sessionIds: flags.session }),
          ...(onProgress === undefined ? {} : { onProgress }),
        });
        const diagnostics = store.diagnostics().embeddings;
        const report = {
          model: embeddings.model,
          dimensions: diagnostics?.dimensions,
          index: diagnostics?.index,
          ...result,
          providerCalls: diagnostics?.providerCalls ?? 0,
        };
        output.stdout(
          flags.json === true
            ? `${JSON.stringify(report, null, 2)}\n`
            : `embedded ${result.embeddedRows} row(s) in ${result.sessions} session(s) with ${report.model}` +
                `${report.dimensions === undefined ? "" : ` (${report.dimensions} dimensions, ${report.index})`}; ${report.providerCalls} provider call(s)\n`,
        );
      } catch (error) {
        output.stderr(failureLine({ command: "embed", error, expected: true }));
        process.exitCode =
          error instanceof EmbedCommandError ||
          (CtxwinError.isInstance(error) && error.name === "CtxwinModelConfigError")
            ? 2
            : 1;
      } finally {
        await store?.close();
      }
    });
}
