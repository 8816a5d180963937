/**
 * `ctxwin import [format] <paths…>`: loads transcripts into a project's store. Formats: `ctxwin`
 * (the JSON lines of `ctxwin history export`; the default when the first argument is a path).
 * Repeating an import adds nothing; a malformed line is reported as file:line and the rest of
 * the file still imports.
 */
import type { Command } from "commander";
import { CtxwinError } from "../../core/errors.js";
import { openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";
import { readCtxwinExport } from "./ctxwin-format.js";
import { emptyReport, formatReport, type ImportReport } from "./import-report.js";
import { importRows, type SourceItem } from "./import-rows.js";

export const IMPORT_FORMATS = ["ctxwin"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface ImportOutput {
  stdout: (chunk: string) => void;
  stderr: (chunk: string) => void;
}

const processOutput: ImportOutput = {
  stdout: (chunk) => process.stdout.write(chunk),
  stderr: (chunk) => process.stderr.write(chunk),
};

/** An expected failure of `ctxwin import`: one line on stderr. */
export class ImportCommandError extends CtxwinError {
  constructor(message: string) {
    super("ImportCommandError", message);
  }

  static override isInstance(error: unknown): error is ImportCommandError {
    return CtxwinError.isInstance(error) && error.name === "ImportCommandError";
  }
}

/**
 * Splits `[format] <paths…>`: a first argument naming a format is the format, anything else is
 * a path of the default format.
 *
 * @example parseImportArguments(["ctxwin", "a.jsonl"]) // { format: "ctxwin", paths: ["a.jsonl"] }
 */
export function parseImportArguments(values: readonly string[]): { format: ImportFormat; paths: string[] } {
  const [first, ...rest] = values;
  const format = IMPORT_FORMATS.find((name) => name === first);
  const paths = format === undefined ? [...values] : rest;
  if (paths.length === 0) throw new ImportCommandError(`ctxwin import ${format ?? ""} needs at least one file to import.`.replace("  ", " "));
  return { format: format ?? "ctxwin", paths };
}

/**
 * Imports files of one format into a store.
 *
 * @example const report = await importFiles({ store, format: "ctxwin", paths: ["s1.jsonl"] });
 */
export async function importFiles({ store, format, paths }: { store: HistoryStore; format: ImportFormat; paths: readonly string[] }): Promise<ImportReport & { malformedCount: number }> {
  const report = emptyReport(format);
  async function* allItems(): AsyncGenerator<SourceItem> {
    for (const file of paths) {
      report.files += 1;
      try {
        yield* readCtxwinExport(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === undefined) throw error;
        report.warnings.push(`${file}: ${(error as Error).message}`);
      }
    }
  }
  await importRows({ store, items: allItems(), report, source: format });
  return report;
}

/**
 * Adds `import` to a commander program.
 *
 * @example registerImportCommand({ program: new Command("ctxwin") });
 */
export function registerImportCommand({ program, output = processOutput }: { program: Command; output?: ImportOutput }): Command {
  return program
    .command("import")
    .description("Import transcripts into the project's store: ctxwin (JSON lines of `ctxwin history export`, the default)")
    .argument("<format-or-file>", `format (${IMPORT_FORMATS.join(", ")}) or the first file to import`)
    .argument("[files...]", "files to import")
    .option("--dir <project>", "project directory whose .ctxwin/ctxwin.db receives the rows (default: the current directory)")
    .option("--json", "print the report as JSON")
    .showHelpAfterError(false)
    .action(async (first: string, rest: string[], options: { dir?: string; json?: boolean }) => {
      let store: HistoryStore | undefined;
      try {
        const { format, paths } = parseImportArguments([first, ...rest]);
        store = openStore(options.dir === undefined ? {} : { directory: options.dir });
        const report = await importFiles({ store, format, paths });
        output.stdout(options.json === true ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
        if (report.malformedCount > 0 || report.warnings.length > 0) process.exitCode = 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        output.stderr(`ctxwin import: ${ImportCommandError.isInstance(error) ? message : `error: ${message}`}\n`.replace(/\n(?!$)/g, " "));
        process.exitCode = ImportCommandError.isInstance(error) ? 2 : 1;
      } finally {
        await store?.close();
      }
    });
}
