/**
 * `ctxwin doctor`: checks a project's store for damage, rebuilds its search indexes when only
 * they are damaged, and with `--salvage <out.jsonl>` writes every readable row as a ctxwin JSONL
 * export that `ctxwin import` loads into a new store. Exit code 0 when the store is healthy in
 * the end, 1 when damage remains or the check failed, 2 for a bad command line. It checks SQLite
 * files only: a PostgreSQL store (`--store postgres://…`, `CTXWIN_DATABASE_URL`) is refused with a
 * line saying what to use instead. A store in good health also gets its embeddings reported
 * (models, dimensions, embedded and pending rows, whether sqlite-vec loads; ADR 0063).
 */
import { closeSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { Option, type Command } from "commander";
import { CtxwinError } from "../../core/errors.js";
import { DATABASE_URL_VARIABLE, DEFAULT_STORE_PATH } from "../../store/open-store.js";
import { doctorDatabase, type DoctorReport } from "../../store/sqlite/doctor/doctor.js";
import { describeEmbeddingStatus, embeddingStatus, type EmbeddingStatus } from "../../store/embeddings/embedding-status.js";
import { FAILURE_EXIT_CODE, USAGE_EXIT_CODE } from "../command-line.js";
import { STORE_FLAG, STORE_FLAG_HELP, isServerUrl, parseStoreFlag } from "../store-flag.js";
import { describeServer } from "../../store/postgres/server-errors.js";

interface DoctorFlags {
  dir?: string;
  db?: string;
  store?: string;
  salvage?: string;
  json?: boolean;
}

export interface DoctorOutput {
  stdout: (chunk: string) => void;
  stderr: (chunk: string) => void;
}

const processOutput: DoctorOutput = {
  stdout: (chunk) => process.stdout.write(chunk),
  stderr: (chunk) => process.stderr.write(chunk),
};

/** Bytes of salvaged lines collected before one write to the output file. */
const WRITE_CHUNK = 64 * 1024;

/**
 * Adds `doctor` to a commander program.
 *
 * @example registerDoctorCommand({ program: new Command("ctxwin") });
 */
export function registerDoctorCommand({ program, output = processOutput }: { program: Command; output?: DoctorOutput }): Command {
  return program
    .command("doctor")
    .description("Check the project's store for damage; rebuild its search indexes when only they are damaged; --salvage exports every readable row")
    .option("--dir <project>", "project directory holding .ctxwin/ctxwin.db (default: the current directory)")
    .addOption(new Option("--db <file>", "the database file itself, instead of --dir").conflicts("dir"))
    .addOption(new Option(STORE_FLAG, `${STORE_FLAG_HELP}; doctor checks SQLite files only`).argParser(parseStoreFlag).conflicts(["dir", "db"]))
    .option("--salvage <out.jsonl>", "write every readable row to this new file (ctxwin JSONL export; load it with 'ctxwin import')")
    .option("--json", "print the report as JSON")
    .showHelpAfterError(false)
    .action(async (flags: DoctorFlags) => {
      const server = serverOf(flags);
      if (server !== undefined) {
        output.stderr(
          `ctxwin doctor: ${server} is a PostgreSQL server; doctor checks SQLite files only. The server keeps its own consistency: ` +
            `check it with its tools (pg_amcheck), copy it with pg_dump, or export sessions with 'ctxwin history export --store <url>'. ` +
            `Nothing was checked.${flags.store === undefined ? ` To check a SQLite file, pass --dir <project> or --db <file>.` : ""}\n`,
        );
        process.exitCode = USAGE_EXIT_CODE;
        return;
      }
      try {
        const file = path.resolve(flags.db ?? flags.store ?? path.join(flags.dir ?? process.cwd(), DEFAULT_STORE_PATH));
        const report = flags.salvage === undefined ? doctorDatabase({ path: file }) : withSalvageFile(path.resolve(flags.salvage), (salvage) => doctorDatabase({ path: file, salvage }));
        const healthy = report.condition === "healthy" || report.condition === "repaired";
        const embeddings = healthy ? await embeddingStatusOrProblem(file) : undefined;
        if (flags.json === true) output.stdout(`${JSON.stringify(embeddings === undefined ? report : { ...report, embeddings }, null, 2)}\n`);
        else output.stdout(`${[describeReport(report, flags.salvage), ...(embeddings === undefined ? [] : describeEmbeddings(embeddings))].join("\n")}\n`);
        if (report.condition !== "healthy" && report.condition !== "repaired") process.exitCode = FAILURE_EXIT_CODE;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        output.stderr(`ctxwin doctor: ${CtxwinError.isInstance(error) ? message : `error: ${message}`}\n`.replace(/\n(?!$)/g, " "));
        process.exitCode = FAILURE_EXIT_CODE;
      }
    });
}

/** The file's embeddings, or why they could not be read (never a reason to fail the check). */
async function embeddingStatusOrProblem(file: string): Promise<EmbeddingStatus | { problem: string }> {
  try {
    return await embeddingStatus({ path: file });
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

function describeEmbeddings(embeddings: EmbeddingStatus | { problem: string }): string[] {
  return "problem" in embeddings ? [`Embeddings: could not be read (${embeddings.problem}).`] : describeEmbeddingStatus(embeddings);
}

/** The server (without password) that the flags or `CTXWIN_DATABASE_URL` name instead of a file. */
function serverOf(flags: DoctorFlags): string | undefined {
  if (flags.store !== undefined) return isServerUrl(flags.store) ? describeServer(flags.store) : undefined;
  const fromEnvironment = process.env[DATABASE_URL_VARIABLE] ?? "";
  if (fromEnvironment === "" || flags.dir !== undefined || flags.db !== undefined) return undefined;
  return `${describeServer(fromEnvironment)} (from ${DATABASE_URL_VARIABLE})`;
}

/** Runs `body` with a writer into a new file (an existing file is never overwritten). */
function withSalvageFile<T>(file: string, body: (write: (line: string) => void) => T): T {
  let descriptor: number;
  try {
    descriptor = openSync(file, "wx");
  } catch (error) {
    const exists = (error as NodeJS.ErrnoException).code === "EEXIST";
    throw new CtxwinError("DoctorCommandError", exists ? `'${file}' already exists; pass --salvage a new file name.` : `Cannot create '${file}': ${(error as Error).message}`);
  }
  let pending = "";
  const flush = () => {
    writeSync(descriptor, pending);
    pending = "";
  };
  try {
    const result = body((line) => {
      pending += line;
      if (pending.length >= WRITE_CHUNK) flush();
    });
    flush();
    return result;
  } finally {
    closeSync(descriptor);
  }
}

function describeReport(report: DoctorReport, salvageFile: string | undefined): string {
  const lines: string[] = [];
  const first = report.problems[0] === undefined ? "" : ` First problem: ${report.problems[0]}`;
  switch (report.condition) {
    case "healthy":
      lines.push(`No damage found in ${report.path}.`);
      break;
    case "repaired":
      lines.push(`The search indexes of ${report.path} were damaged and have been rebuilt (${report.rowsIndexed ?? 0} rows indexed); the history itself was intact. No damage remains.`);
      break;
    case "search-index-damaged":
      lines.push(`Only the search indexes of ${report.path} are damaged.${first}`);
      lines.push(report.writable ? "Rebuilding them did not clear the damage: salvage the rows (below) into a new store." : "Run ctxwin doctor again as a user who can write the file and its folder to rebuild them.");
      break;
    case "damaged":
      lines.push(`${report.path} is damaged beyond its search indexes (${report.problems.length} problem(s) reported).${first}`);
      break;
  }
  if (report.salvage !== undefined) {
    const { rowsWritten, sessions, keysUnreadable, rowsUndecodable } = report.salvage;
    lines.push(`Salvaged ${rowsWritten} row(s) of ${sessions} session(s) to ${salvageFile ?? "the salvage file"} (${keysUnreadable} row key(s) on damaged pages, ${rowsUndecodable} row(s) not decodable).`);
  }
  if (report.condition === "damaged" || (report.condition === "search-index-damaged" && report.writable)) {
    lines.push(
      report.salvage === undefined
        ? "To recover: ctxwin doctor --salvage rows.jsonl, move the damaged file (and its -wal, -shm, -damaged files) away, then ctxwin import rows.jsonl."
        : `To recover: move the damaged file (and its -wal, -shm, -damaged files) away, then ctxwin import ${salvageFile ?? "<the salvage file>"}.`,
    );
  }
  return lines.join("\n");
}
