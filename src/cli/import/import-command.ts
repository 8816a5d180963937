/**
 * `ctxwin import [format] <paths…>`: loads transcripts into a project's store. Formats: `ctxwin`
 * (the JSON lines of `ctxwin history export`; the default when the first argument is a path),
 * `claude-code` and `codex` (their session files; default: where each agent keeps them).
 * Repeating an import adds nothing; a malformed line is reported as file:line and the rest of
 * the file still imports.
 */
import cliProgress from "cli-progress";
import type { Command } from "commander";
import { errorClass } from "../../core/errors.js";
import { IMPORT_FORMATS, importFiles, type ImportFormat, type ImportProgress } from "../../import/import-files.js";
import { formatReport } from "../../import/import-report.js";
import { projectSourcePaths } from "../../import/project-sessions.js";
import { defaultSourceFolder } from "../../import/source-files.js";
import { openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";
import { STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag, storeOptionsOf } from "../store-flag.js";
import { failureLine, processOutput, type CommandRegistration } from "../command-output.js";

/** An expected failure of `ctxwin import`: one line on stderr. */
export class ImportCommandError extends errorClass("ImportCommandError") {}

/**
 * Splits `[format] <paths…>`: a first argument naming a format is the format, anything else is
 * a path of the default format.
 *
 * @example parseImportArguments(["ctxwin", "a.jsonl"]) // { format: "ctxwin", paths: ["a.jsonl"] }
 */
export function parseImportArguments(
  values: readonly string[],
  { home }: { home?: string } = {},
): { format: ImportFormat; paths: string[] } {
  const [first, ...rest] = values;
  const format = IMPORT_FORMATS.find((name) => name === first);
  const paths = format === undefined ? [...values] : rest;
  if (paths.length > 0) return { format: format ?? "ctxwin", paths };
  if (format === "claude-code" || format === "codex") return { format, paths: [defaultSourceFolder(format, home)] };
  throw new ImportCommandError("ctxwin import ctxwin needs at least one exported .jsonl file.");
}

/** `--project`: the project's own transcripts in place of the default folder. */
async function projectArguments(
  parsed: { format: ImportFormat; paths: string[] },
  { given, project }: { given: number; project: string | undefined },
): Promise<{ format: ImportFormat; paths: string[] }> {
  if (project === undefined) return parsed;
  const { format } = parsed;
  if (format === "ctxwin")
    throw new ImportCommandError("--project works with claude-code and codex transcripts, not ctxwin exports.");
  if (given > 0)
    throw new ImportCommandError(
      "--project imports the project's sessions from where the CLI keeps them: give it no paths.",
    );
  return { format, paths: await projectSourcePaths({ format, project }) };
}

function terminalProgress(): ImportProgress | undefined {
  if (process.stderr.isTTY !== true) return undefined;
  const bar = new cliProgress.SingleBar(
    {
      format: "importing {bar} {value}/{total} files",
      stream: process.stderr,
      clearOnComplete: true,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  return { start: (total) => bar.start(total, 0), advance: () => bar.increment(), stop: () => bar.stop() };
}

/**
 * Adds `import` to a commander program.
 *
 * @example registerImportCommand({ program: new Command("ctxwin") });
 */
export function registerImportCommand({ program, output = processOutput }: CommandRegistration): Command {
  return program
    .command("import")
    .description(
      "Import transcripts into the project's store: ctxwin (JSON lines of `ctxwin history export`, the default), claude-code, codex",
    )
    .argument("<format-or-file>", `format (${IMPORT_FORMATS.join(", ")}) or the first file to import`)
    .argument("[paths...]", "files or folders (claude-code: ~/.claude/projects, codex: ~/.codex/sessions by default)")
    .option(
      "--dir <project>",
      "project directory whose .ctxwin/ctxwin.db receives the rows (default: the current directory)",
    )
    .option(STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag)
    .option(
      "--project <folder>",
      "claude-code, codex: only this project's sessions (Claude Code: its folder under ~/.claude/projects; Codex: sessions whose cwd is inside it)",
    )
    .option("--json", "print the report as JSON")
    .showHelpAfterError(false)
    .action(
      async (
        first: string,
        rest: string[],
        options: { dir?: string; store?: string; json?: boolean; project?: string },
      ) => {
        let store: HistoryStore | undefined;
        try {
          const { format, paths } = await projectArguments(parseImportArguments([first, ...rest]), {
            given: rest.length,
            project: options.project,
          });
          store = openStore(storeOptionsOf({ store: options.store, directory: options.dir ?? process.cwd() }));
          const progress = options.json === true ? undefined : terminalProgress();
          const report = await importFiles({ store, format, paths, ...(progress === undefined ? {} : { progress }) });
          output.stdout(options.json === true ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
          if (report.malformedCount > 0 || report.warnings.length > 0) process.exitCode = 1;
        } catch (error) {
          output.stderr(failureLine({ command: "import", error, expected: ImportCommandError.isInstance(error) }));
          process.exitCode = ImportCommandError.isInstance(error) ? 2 : 1;
        } finally {
          await store?.close();
        }
      },
    );
}
