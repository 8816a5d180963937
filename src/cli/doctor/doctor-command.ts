/**
 * `ctxwin doctor`: checks a project's store for damage, rebuilds its search indexes when only
 * they are damaged, and with `--salvage <out.jsonl>` writes every readable row as a ctxwin JSONL
 * export that `ctxwin import` loads into a new store. Exit code 0 when the store is healthy in
 * the end, 1 when damage remains or the check failed, 2 for a bad command line. A store in good
 * health also gets its embeddings reported (models, dimensions, embedded and pending rows, the last
 * failure, whether sqlite-vec loads; ADR 0063). A PostgreSQL store (`--store postgres://…`,
 * `CTXWIN_DATABASE_URL`) keeps its own consistency: doctor reads its sessions and reports its
 * embeddings (whether pgvector is there, HNSW or exact search), read-only, and names the server's
 * own tools for checking pages; `--salvage` is for SQLite files.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { Option, type Command } from "commander";
import { CtxwinError } from "../../core/errors.js";
import { DATABASE_URL_VARIABLE, DEFAULT_STORE_PATH, openStore } from "../../store/open-store.js";
import { doctorDatabase, type DoctorReport } from "../../store/sqlite/doctor/doctor.js";
import {
  describeEmbeddingStatus,
  embeddingStatus,
  type EmbeddingStatus,
} from "../../store/embeddings/embedding-status.js";
import { FAILURE_EXIT_CODE, USAGE_EXIT_CODE } from "../command-line.js";
import { STORE_FLAG, STORE_FLAG_HELP, isServerUrl, parseStoreFlag } from "../store-flag.js";
import { failureLine, processOutput, type CommandOutput, type CommandRegistration } from "../command-output.js";
import { describeServer } from "../../store/postgres/server-errors.js";
import { DEFAULT_POSTGRES_SCHEMA, schemaFromUrl } from "../../store/postgres/schema.js";
import { postgresEmbeddingStatus } from "../../store/embeddings/postgres-embedding-status.js";

interface DoctorFlags {
  dir?: string;
  db?: string;
  store?: string;
  salvage?: string;
  json?: boolean;
}

/** Bytes of salvaged lines collected before one write to the output file. */
const WRITE_CHUNK = 64 * 1024;

/**
 * Adds `doctor` to a commander program.
 *
 * @example registerDoctorCommand({ program: new Command("ctxwin") });
 */
export function registerDoctorCommand({ program, output = processOutput }: CommandRegistration): Command {
  return program
    .command("doctor")
    .description(
      "Check the project's store for damage; rebuild its search indexes when only they are damaged; --salvage exports every readable row",
    )
    .option("--dir <project>", "project directory holding .ctxwin/ctxwin.db (default: the current directory)")
    .addOption(new Option("--db <file>", "the database file itself, instead of --dir").conflicts("dir"))
    .addOption(
      new Option(STORE_FLAG, `${STORE_FLAG_HELP}; a server is read, not checked page by page`)
        .argParser(parseStoreFlag)
        .conflicts(["dir", "db"]),
    )
    .option(
      "--salvage <out.jsonl>",
      "write every readable row to this new file (ctxwin JSONL export; load it with 'ctxwin import')",
    )
    .option("--json", "print the report as JSON")
    .showHelpAfterError(false)
    .action(async (flags: DoctorFlags) => {
      const server = serverOf(flags);
      if (server !== undefined && flags.salvage !== undefined) {
        output.stderr(
          `ctxwin doctor: --salvage reads SQLite files; ${server.where} is a PostgreSQL server: ` +
            "export its sessions with 'ctxwin history export --store <url>' (or copy it with pg_dump). " +
            `Nothing was written.\n`,
        );
        process.exitCode = USAGE_EXIT_CODE;
        return;
      }
      try {
        if (server !== undefined) {
          await doctorServer(server, flags.json === true, output);
          return;
        }
        const file = path.resolve(flags.db ?? flags.store ?? path.join(flags.dir ?? process.cwd(), DEFAULT_STORE_PATH));
        const report =
          flags.salvage === undefined
            ? doctorDatabase({ path: file })
            : withSalvageFile(path.resolve(flags.salvage), (salvage) => doctorDatabase({ path: file, salvage }));
        const healthy = report.condition === "healthy" || report.condition === "repaired";
        const embeddings = healthy ? await statusOrProblem(() => embeddingStatus({ path: file })) : undefined;
        if (flags.json === true)
          output.stdout(`${JSON.stringify(embeddings === undefined ? report : { ...report, embeddings }, null, 2)}\n`);
        else
          output.stdout(
            `${[describeReport(report, flags.salvage), ...(embeddings === undefined ? [] : describeEmbeddings(embeddings))].join("\n")}\n`,
          );
        if (report.condition !== "healthy" && report.condition !== "repaired") process.exitCode = FAILURE_EXIT_CODE;
      } catch (error) {
        output.stderr(failureLine({ command: "doctor", error, expected: CtxwinError.isInstance(error) }));
        process.exitCode = FAILURE_EXIT_CODE;
      }
    });
}

interface ServerTarget {
  url: string;
  schema: string;
  /** The server without password, and where the URL came from, for people. */
  where: string;
}

/**
 * A PostgreSQL store: its sessions are read (which checks that the schema is a ctxwin store of a
 * format this version reads) and its embeddings reported; nothing is written.
 */
async function doctorServer(server: ServerTarget, json: boolean, output: CommandOutput): Promise<void> {
  const store = openStore({ url: server.url, schema: server.schema, readOnly: true });
  let sessions: number;
  try {
    sessions = (await store.sessions()).length;
  } finally {
    await store.close();
  }
  const embeddings = await statusOrProblem(() => postgresEmbeddingStatus({ url: server.url, schema: server.schema }));
  if (json) {
    output.stdout(
      `${JSON.stringify({ backend: "postgres", server: describeServer(server.url), schema: server.schema, sessions, embeddings }, null, 2)}\n`,
    );
    return;
  }
  const lines = [
    `PostgreSQL store at ${server.where} (schema '${server.schema}'): ${sessions} session(s), readable.`,
    "The server keeps its own consistency: doctor does not check its pages (use pg_amcheck), " +
      "copy it with pg_dump, export sessions with 'ctxwin history export --store <url>'.",
    ...describeEmbeddings(embeddings),
  ];
  output.stdout(`${lines.join("\n")}\n`);
}

/** The store's embeddings, or why they could not be read (never a reason to fail the check). */
async function statusOrProblem(read: () => Promise<EmbeddingStatus>): Promise<EmbeddingStatus | { problem: string }> {
  try {
    return await read();
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

function describeEmbeddings(embeddings: EmbeddingStatus | { problem: string }): string[] {
  return "problem" in embeddings
    ? [`Embeddings: could not be read (${embeddings.problem}).`]
    : describeEmbeddingStatus(embeddings);
}

/** The server that the flags or `CTXWIN_DATABASE_URL` name instead of a file. */
function serverOf(flags: DoctorFlags): ServerTarget | undefined {
  const target = (given: string, where: string): ServerTarget => {
    const { url, schema } = schemaFromUrl(given, undefined);
    return { url, schema: schema ?? DEFAULT_POSTGRES_SCHEMA, where };
  };
  if (flags.store !== undefined)
    return isServerUrl(flags.store) ? target(flags.store, describeServer(flags.store)) : undefined;
  const fromEnvironment = process.env[DATABASE_URL_VARIABLE] ?? "";
  if (fromEnvironment === "" || flags.dir !== undefined || flags.db !== undefined) return undefined;
  return target(fromEnvironment, `${describeServer(fromEnvironment)} (from ${DATABASE_URL_VARIABLE})`);
}

/** Runs `body` with a writer into a new file (an existing file is never overwritten). */
function withSalvageFile<T>(file: string, body: (write: (line: string) => void) => T): T {
  let descriptor: number;
  try {
    descriptor = openSync(file, "wx");
  } catch (error) {
    const exists = (error as NodeJS.ErrnoException).code === "EEXIST";
    throw new CtxwinError(
      "DoctorCommandError",
      exists
        ? `'${file}' already exists; pass --salvage a new file name.`
        : `Cannot create '${file}': ${(error as Error).message}`,
    );
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
      lines.push(
        `The search indexes of ${report.path} were damaged and have been rebuilt ` +
          `(${report.rowsIndexed ?? 0} rows indexed); the history itself was intact. No damage remains.`,
      );
      break;
    case "search-index-damaged":
      lines.push(`Only the search indexes of ${report.path} are damaged.${first}`);
      lines.push(
        report.writable
          ? "Rebuilding them did not clear the damage: salvage the rows (below) into a new store."
          : "Run ctxwin doctor again as a user who can write the file and its folder to rebuild them.",
      );
      break;
    case "damaged":
      lines.push(
        `${report.path} is damaged beyond its search indexes (${report.problems.length} problem(s) reported).${first}`,
      );
      break;
  }
  if (report.salvage !== undefined) {
    const { rowsWritten, sessions, keysUnreadable, rowsUndecodable } = report.salvage;
    lines.push(
      `Salvaged ${rowsWritten} row(s) of ${sessions} session(s) ` +
        `to ${salvageFile ?? "the salvage file"} (${keysUnreadable} row key(s) ` +
        `on damaged pages, ${rowsUndecodable} row(s) not decodable).`,
    );
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
