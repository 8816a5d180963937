/**
 * `ctxwin history`: inspect any session of a project's store from the shell. Each subcommand
 * takes `--dir`, `--json` and `--include-cleared`; expected failures are one line on stderr and
 * exit code 1.
 */
import { InvalidArgumentError, Option, type Command } from "commander";
import type { RowRole } from "../../core/row.js";
import { SEARCH_ROLES } from "../../core/search-filter.js";
import type { SearchMode } from "../../core/search-query.js";
import type { EmbeddingSearchMode, HistoryStore } from "../../store/port.js";
import { resolveEmbeddingModel } from "../../agent/embedding-flags.js";
import { EXPORT_FORMATS, exportSession, type ExportFormat } from "./export-session.js";
import {
  formatHits,
  formatItems,
  formatRead,
  formatSessionHits,
  formatSessions,
  formatWindows,
} from "./format-human.js";
import { HistoryCommandError } from "./history-errors.js";
import {
  listItemEntries,
  listSessions,
  listWindowEntries,
  openScope,
  readEntry,
  searchEntries,
  type HistoryScope,
} from "./history-queries.js";
import { searchAllSessions } from "./search-all-sessions.js";
import { openProjectStore } from "./open-project-store.js";
import { forkSession } from "./fork-session.js";
import { DEFAULT_USAGE_WINDOWS, formatUsage, sessionTimeline } from "./usage-command.js";
import { timelineSettingsOf } from "../../core/timeline/timeline-settings.js";
import { readConfigFile } from "../../store/config-file.js";
import { wantsUnicode } from "../terminal/timeline-chart.js";
import { STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag } from "../store-flag.js";
import { failureLine, processOutput, type CommandOutput, type CommandRegistration } from "../command-output.js";

interface CommonOptions {
  dir?: string;
  store?: string;
  json?: boolean;
  includeCleared?: boolean;
}

interface SearchFlags {
  ranked?: boolean;
  hybrid?: boolean;
  semantic?: boolean;
  embeddingModel?: string;
  embeddingBaseUrl?: string;
  newest?: boolean;
  role?: RowRole;
  tool?: string;
  limit?: number;
}

const DEFAULT_SEARCH_LIMIT = 20;
/** The store's cap on one search call. */
const MAX_SEARCH_LIMIT = 1000;

/**
 * Adds `history` and its subcommands to a commander program.
 *
 * @example registerHistoryCommand({ program: new Command("ctxwin") });
 */
export function registerHistoryCommand({ program, output = processOutput }: CommandRegistration): Command {
  // A bad flag is one line (commander's message), not the message plus the whole usage.
  const history = program
    .command("history")
    .description("Inspect the stored history of any session of a project")
    .showHelpAfterError(false);
  const run = runner(output);

  withCommonOptions(history.command("sessions").description("List the sessions of the project")).action(
    (options: CommonOptions) =>
      run(options, async ({ store }) => {
        const sessions = await listSessions({ store, includeCleared: options.includeCleared === true });
        return options.json === true ? sessions : formatSessions(sessions);
      }),
  );

  history
    .command("fork")
    .description("Start a new session that shares a session's history up to an item (nothing is copied)")
    .argument("<session>", "session id")
    .requiredOption("--at <item>", "the last item the fork shares, e.g. 42")
    .option("--as <id>", "the new session's id (default: <session>-fork-<8 characters>)")
    .option("--dir <project>", "project directory holding .ctxwin/ctxwin.db (default: the current directory)")
    .option(STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag)
    .option("--json", "print the new session's summary as JSON")
    .action((session: string, options: CommonOptions & { at: string; as?: string }) =>
      run(
        options,
        async ({ store }) => {
          const fork = await forkSession({
            store,
            sessionId: session,
            at: options.at,
            ...(options.as === undefined ? {} : { as: options.as }),
          });
          return options.json === true ? fork : `Forked ${session} at #${options.at} as ${fork.session_id}.`;
        },
        { writable: true },
      ),
    );

  withCommonOptions(
    history
      .command("windows")
      .description("List the context windows of a session, oldest first")
      .argument("<session>", "session id"),
  ).action((session: string, options: CommonOptions) =>
    run(options, async ({ store }) => {
      const windows = await listWindowEntries(await scopeOf(store, session, options));
      return options.json === true ? windows : formatWindows(windows);
    }),
  );

  withCommonOptions(
    history
      .command("items")
      .description("List the items of one context window, oldest first")
      .argument("<session>", "session id")
      .argument("<window>", "window id, e.g. w:0"),
  ).action((session: string, window: string, options: CommonOptions) =>
    run(options, async ({ store }) => {
      const items = await listItemEntries(await scopeOf(store, session, options), window);
      return options.json === true ? items : formatItems(window, items);
    }),
  );

  withCommonOptions(
    history
      .command("search")
      .description(
        "Search a session, or every session when no session id is given: literal (case-insensitive, newest first) " +
          "or --ranked (any of the words, most relevant first)",
      )
      .usage("[options] [session] <text>")
      .argument(
        "<session-or-text>",
        "session id; alone, the text to look for in every session (as session_history without session_id)",
      )
      .argument("[text]", "text to look for")
      .option("--ranked", "match any of the words (stemmed), most relevant first, instead of the exact text")
      .option("--hybrid", "words and meaning (with --embedding-model), most relevant first")
      .option("--semantic", "meaning alone (with --embedding-model), most similar first")
      .option(
        "--embedding-model <provider:id>",
        "the model the store was embedded with: openai:<id>, google:<id>, or <id> with --embedding-base-url",
      )
      .option("--embedding-base-url <url>", "an OpenAI-compatible server that embeds (Ollama, LM Studio, vLLM)")
      .option("--newest", "with --ranked or --hybrid: the same hits newest first")
      .addOption(new Option("--role <role>", "only items of this role").choices(SEARCH_ROLES))
      .option("--tool <name>", "only items calling this tool (any case): the call and its result")
      .option("--limit <count>", `most hits to show (default ${DEFAULT_SEARCH_LIMIT})`, parseSearchLimit),
  ).action((first: string, second: string | undefined, options: CommonOptions & SearchFlags) =>
    run(options, async ({ store }) => {
      const [session, text] = second === undefined ? [undefined, first] : [first, second];
      const modes = (["ranked", "hybrid", "semantic"] as const).filter((name) => options[name] === true);
      if (modes.length > 1)
        throw new HistoryCommandError(
          `choose one of --ranked, --hybrid and --semantic; got ${modes.map((name) => `--${name}`).join(" and ")}.`,
        );
      const mode: SearchMode | EmbeddingSearchMode = modes[0] ?? "literal";
      if (options.newest === true && mode === "literal")
        throw new HistoryCommandError("--newest orders ranked hits (--ranked); literal hits are always newest first.");
      if (session === undefined) {
        const scopedFlags = ["semantic", "includeCleared"] as const;
        const unscoped = scopedFlags.filter((name) => options[name] !== undefined && options[name] !== false);
        if (unscoped.length > 0) {
          const flagOf = (name: string) => `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
          const flags = unscoped.map(flagOf).join(", ");
          throw new HistoryCommandError(`${flags} work within one session: give its id before the text.`);
        }
        const results = await searchAllSessions({
          store,
          query: text,
          mode: mode === "ranked" || mode === "hybrid" ? mode : "literal",
          onNote: (note) => output.stderr(`ctxwin history: ${note}\n`),
          limit: options.limit ?? DEFAULT_SEARCH_LIMIT,
          filter: { role: options.role, toolName: options.tool },
          ...(options.newest === true ? { order: "newest" as const } : {}),
        });
        return options.json === true ? results : formatSessionHits(results);
      }
      const hits = await searchEntries(await scopeOf(store, session, options), {
        query: text,
        mode,
        onNote: (note) => output.stderr(`ctxwin history: ${note}\n`),
        limit: options.limit ?? DEFAULT_SEARCH_LIMIT,
        filter: { role: options.role, toolName: options.tool },
        ...(options.newest === true ? { order: "newest" as const } : {}),
      });
      return options.json === true ? hits : formatHits(hits);
    }),
  );

  withCommonOptions(
    history
      .command("read")
      .description("Print one item's full text")
      .argument("<session>", "session id")
      .argument("<item>", "item id, e.g. 42"),
  ).action((session: string, item: string, options: CommonOptions) =>
    run(options, async ({ store }) => {
      const entry = await readEntry(await scopeOf(store, session, options), item);
      return options.json === true ? entry : formatRead(entry);
    }),
  );

  withCommonOptions(
    history
      .command("export")
      .description("Export a session: jsonl (every stored row after the floor) or markdown (the readable transcript)")
      .argument("<session>", "session id")
      .addOption(new Option("--format <format>", "export format").choices(EXPORT_FORMATS).default("jsonl")),
  ).action((session: string, options: CommonOptions & { format: ExportFormat }) =>
    run(options, async ({ store }) => {
      // jsonl is the JSON form of an export; markdown is for reading.
      if (options.json === true && options.format === "markdown")
        throw new HistoryCommandError(
          "--json and --format markdown do not go together: the JSON export is --format jsonl (the default).",
        );
      await exportSession(await scopeOf(store, session, options), { format: options.format, write: output.stdout });
      return undefined;
    }),
  );

  history
    .command("usage")
    .description("Chart how a session's context filled: a sparkline per window, then a table per window")
    .argument("<session>", "session id")
    .option("--dir <project>", "project directory holding .ctxwin/ctxwin.db (default: the current directory)")
    .option(STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag)
    .option("--json", "print the timeline as JSON (every request, mark and window)")
    .option("--ascii", "plain ASCII characters (the default when the locale is not UTF-8)")
    .option(
      "--windows <count>",
      `read the newest <count> windows request by request, or all (default ${DEFAULT_USAGE_WINDOWS})`,
      parseWindowCount,
      DEFAULT_USAGE_WINDOWS,
    )
    .option("--include-cleared", "also chart a sub-agent session that a manual reset above it hides (off by default)")
    .action((session: string, options: CommonOptions & { ascii?: boolean; windows: number | "all" }) =>
      run(options, async ({ store }) => {
        const config = await readConfigFile({ directory: options.dir ?? process.cwd() });
        const settings = timelineSettingsOf(config.status === "invalid" ? {} : config.config);
        const includeCleared = options.includeCleared === true;
        const timeline = await sessionTimeline({
          store,
          sessionId: session,
          settings,
          windows: options.windows,
          includeCleared,
        });
        return options.json === true
          ? timeline
          : formatUsage(timeline, { ascii: options.ascii === true || !wantsUnicode() });
      }),
    );

  return history;
}

function parseWindowCount(value: string): number | "all" {
  if (value === "all") return "all";
  if (!/^[1-9][0-9]{0,5}$/.test(value)) throw new InvalidArgumentError("expected a positive whole number or all.");
  return Number(value);
}

function withCommonOptions(command: Command): Command {
  return command
    .option("--dir <project>", "project directory holding .ctxwin/ctxwin.db (default: the current directory)")
    .option(STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag)
    .option("--json", "print JSON instead of text lines")
    .option("--include-cleared", "also show history at or before the newest manual reset (off by default)");
}

function scopeOf(store: HistoryStore, sessionId: string, options: CommonOptions): Promise<HistoryScope> {
  return openScope({ store, sessionId, includeCleared: options.includeCleared === true });
}

/** Opens the store, runs one command, prints its result, and turns failures into one stderr line and exit code 1. */
function runner(output: CommandOutput) {
  return async (
    options: CommonOptions & { embeddingModel?: string; embeddingBaseUrl?: string },
    body: (context: { store: HistoryStore }) => Promise<unknown>,
    { writable = false }: { writable?: boolean } = {},
  ): Promise<void> => {
    let store: HistoryStore | undefined;
    try {
      const model = resolveEmbeddingModel({
        embeddingModel: options.embeddingModel,
        embeddingBaseUrl: options.embeddingBaseUrl,
      });
      store = openProjectStore({
        ...(model === undefined
          ? {}
          : { embeddings: { model, onWarning: (message: string) => output.stderr(`ctxwin history: ${message}\n`) } }),
        ...(options.dir === undefined ? {} : { directory: options.dir }),
        ...(options.store === undefined ? {} : { store: options.store }),
        readOnly: !writable,
      });
      const result = await body({ store });
      if (typeof result === "string") output.stdout(`${result}\n`);
      else if (result !== undefined) output.stdout(`${JSON.stringify(result, null, 2)}\n`);
    } catch (error) {
      output.stderr(failureLine({ command: "history", error, expected: HistoryCommandError.isInstance(error) }));
      process.exitCode = 1;
    } finally {
      await store?.close();
    }
  };
}

function parseSearchLimit(value: string): number {
  const count = /^[1-9][0-9]{0,5}$/.test(value) ? Number(value) : 0;
  if (count < 1 || count > MAX_SEARCH_LIMIT)
    throw new InvalidArgumentError(`expected a positive whole number up to ${MAX_SEARCH_LIMIT}.`);
  return count;
}
