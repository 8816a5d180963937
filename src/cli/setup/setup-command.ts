/**
 * `ctxwin setup claude-code|codex [--scope user|project] [--dir <store>] [--dry-run]` registers
 * the MCP server (`ctxwin mcp --import <client>`) and the SessionStart hook (`ctxwin hook
 * session-start`) in the coding CLI's settings files; `ctxwin setup --remove` takes them out
 * again. Only ctxwin's entries change; running it twice changes nothing the second time.
 */
import os from "node:os";
import path from "node:path";
import type { Command } from "commander";
import { USAGE_EXIT_CODE } from "../command-line.js";
import type { TranscriptFormat } from "../../import/source-files.js";
import { installCommand } from "./install-command.js";
import { unifiedDiff } from "./line-diff.js";
import { BACKUP_SUFFIX, withLocks } from "./settings-file.js";
import type { FileChange } from "./setup-plan.js";
import { setupTargets, type SetupScope } from "./setup-targets.js";
import { cliEntry } from "../../package-root.js";

interface SetupOptions {
  scope: string;
  dir?: string;
  command?: string;
  dryRun?: boolean;
  remove?: boolean;
}

const CLIENTS: readonly TranscriptFormat[] = ["claude-code", "codex"];
const SCOPES: readonly SetupScope[] = ["user", "project"];

/**
 * Adds `setup` to a commander program.
 *
 * @example registerSetupCommand({ program: new Command("ctxwin") });
 */
export function registerSetupCommand({
  program,
  write = (text) => process.stdout.write(text),
}: {
  program: Command;
  write?: (text: string) => void;
}): Command {
  return program
    .command("setup")
    .description("Register ctxwin's MCP server and SessionStart hook with Claude Code or Codex (--remove undoes it)")
    .argument("[client]", "claude-code or codex (with --remove: default both)")
    .option("--scope <scope>", "user (your home folder's settings) or project (the current folder's)", "user")
    .option(
      "--dir <store>",
      "folder whose .ctxwin/ctxwin.db keeps the history (default: your home folder, or the project with --scope project)",
    )
    .option(
      "--command <words>",
      "how the CLI should run ctxwin (default: this install — node and its script — or 'npx -y ctxwin' when started by npx)",
    )
    .option("--dry-run", "print the changes as a diff; write nothing")
    .option("--remove", "take ctxwin's entries out again")
    .action(async (clientName: string | undefined, options: SetupOptions, command: Command) => {
      const usage = (message: string): never =>
        command.error(message, { exitCode: USAGE_EXIT_CODE, code: "ctxwin.setup.options" });
      const scope =
        SCOPES.find((name) => name === options.scope) ??
        usage(`--scope must be user or project; got '${options.scope}'`);
      const known = CLIENTS.find((name) => name === clientName);
      if (clientName !== undefined && known === undefined)
        usage(`the client must be claude-code or codex; got '${clientName}'`);
      if (known === undefined && options.remove !== true)
        usage("name the client: ctxwin setup claude-code or ctxwin setup codex");
      const words =
        options.command === undefined
          ? thisInstall()
          : options.command
              .trim()
              .split(/\s+/)
              .filter((word) => word !== "");
      if (words.length === 0) usage("--command needs at least one word, e.g. --command ctxwin");
      const home = os.homedir();
      const project = process.cwd();
      const storeDirectory = path.resolve(options.dir ?? (scope === "user" ? home : project));
      const clients = known === undefined ? CLIENTS : [known];
      const targets = clients.flatMap((client) =>
        setupTargets({ client, scope, home, project, storeDirectory, command: words }),
      );
      const action = options.remove === true ? "remove" : "install";
      // The parsers (smol-toml, jsonc-parser) load only when setup runs.
      const { applyChanges, planChanges } = await import("./setup-plan.js");
      if (options.dryRun === true) {
        for (const change of planChanges(targets, action)) {
          write(
            change.after === change.before
              ? `${change.file}: no change\n`
              : unifiedDiff({ path: change.file, before: change.before, after: change.after ?? "" }),
          );
        }
        return;
      }
      const changes = withLocks({
        files: targets.map((target) => target.file),
        createFolders: action === "install",
        onWait: (message) => process.stderr.write(`ctxwin setup: ${message}\n`),
        work: () => {
          const planned = planChanges(targets, action);
          applyChanges(planned);
          return planned;
        },
      });
      for (const change of changes) write(`${describe(change)}\n`);
      if (options.remove !== true && changes.some((change) => change.after !== change.before))
        write(nextSteps(clients, scope, storeDirectory));
    });
}

/** This install's command: the node running it and the package's `dist/cli/main.js` (or npx). */
function thisInstall(): string[] {
  return installCommand({ script: cliEntry(), node: process.execPath });
}

function describe(change: FileChange): string {
  if (change.after === change.before) return `unchanged ${change.file}`;
  if (change.before === undefined) return `created ${change.file}`;
  const backup = `${path.basename(change.file)}${BACKUP_SUFFIX}`;
  if (change.action === "remove") {
    return change.after === change.backup
      ? `updated ${change.file} (back to its text before ctxwin setup; ${backup} deleted)`
      : `updated ${change.file}`;
  }
  return `updated ${change.file} (its text before ctxwin's first change is in ${backup} beside it)`;
}

function nextSteps(clients: readonly TranscriptFormat[], scope: SetupScope, storeDirectory: string): string {
  const lines = [`The history is kept in ${path.join(storeDirectory, ".ctxwin", "ctxwin.db")}.`];
  if (clients.includes("claude-code")) {
    lines.push(
      "Claude Code: start a new session (or restart it) " +
        `to load the server and the hook${scope === "project" ? "; it asks once to approve the project's .mcp.json server" : ""}.`,
    );
  }
  if (clients.includes("codex"))
    lines.push("Codex: open /hooks once and trust the ctxwin hook (Codex runs a new hook only after that).");
  return `${lines.join("\n")}\n`;
}
