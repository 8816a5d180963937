/**
 * The `ctxwin` command tree with every subcommand: `demo` runs the offline demonstration, `chat` an
 * agent on a real provider, `history` inspects stored sessions, `import` loads transcripts, `mcp`
 * serves the history to MCP clients, `serve` opens the web UI, `eval` measures rollover against
 * compaction on a model, `setup` registers ctxwin with Claude Code or Codex, `hook` is what their
 * hooks run. A fresh tree per call: commander keeps parsed options on its commands, so one tree
 * serves one command line (program.ts, the executable's; tests run several in one process).
 *
 * Each command's module loads only when that command runs (issue 49: `ctxwin --version` and
 * `--help` start in a few node start-ups, and a client waiting for `ctxwin mcp` gets its answer in
 * time): the others stand in the tree as placeholders carrying their name, usage and description,
 * which is all the program's help lists (help-output.test.ts holds the two trees' help equal).
 */
import { Command, Help } from "commander";
import { configureCommandLine } from "./command-line.js";
import { packageJson } from "../package-root.js";

interface CommandEntry {
  name: string;
  /** How the program's help lists the command: its name, `[options]` and its arguments. */
  term: string;
  description: string;
  /** Loads the command's module and adds the command to `program`. */
  register: (program: Command, version: string) => Promise<unknown>;
}

const COMMANDS: readonly CommandEntry[] = [
  {
    name: "demo",
    term: "demo [options]",
    description:
      "Run an offline demo: a scripted agent reads files under a small context limit, rolls over, and recovers an early detail from its history",
    register: async (program) => (await import("./demo/demo-command.js")).registerDemoCommand({ program }),
  },
  {
    name: "chat",
    term: "chat [options]",
    description:
      "Chat with an agent over a folder on a real provider; near the context limit it rolls over to a fresh window instead of summarizing",
    register: async (program) => (await import("./chat/chat-command.js")).registerChatCommand({ program }),
  },
  {
    name: "history",
    term: "history",
    description: "Inspect the stored history of any session of a project",
    register: async (program) => (await import("./history/history-command.js")).registerHistoryCommand({ program }),
  },
  {
    name: "import",
    term: "import [options] <format-or-file> [paths...]",
    description:
      "Import transcripts into the project's store: ctxwin (JSON lines of `ctxwin history export`, the default), claude-code, codex",
    register: async (program) => (await import("./import/import-command.js")).registerImportCommand({ program }),
  },
  {
    name: "embed",
    term: "embed [options]",
    description:
      "Embed the rows of a store for hybrid and semantic search (resumable; rows already embedded are skipped)",
    register: async (program) => (await import("./embed/embed-command.js")).registerEmbedCommand({ program }),
  },
  {
    name: "mcp",
    term: "mcp [options]",
    description: "Serve session_history (and optionally memory) to an MCP client over stdio",
    register: async (program, version) =>
      (await import("./mcp/mcp-command.js")).registerMcpCommand({ program, version }),
  },
  {
    name: "serve",
    term: "serve [options]",
    description:
      "Open the web UI: watch sessions, their windows and budget in the browser, and chat when a model is given",
    register: async (program) => (await import("./serve/serve-command.js")).registerServeCommand({ program }),
  },
  {
    name: "doctor",
    term: "doctor [options]",
    description:
      "Check the project's store for damage; rebuild its search indexes when only they are damaged; --salvage exports every readable row",
    register: async (program) => (await import("./doctor/doctor-command.js")).registerDoctorCommand({ program }),
  },
  {
    name: "eval",
    term: "eval [options]",
    description: "measure rollover against compaction and truncation on your own model (docs/eval.md)",
    register: async (program) => (await import("./eval/eval-command.js")).registerEvalCommand({ program }),
  },
  {
    name: "hook",
    term: "hook",
    description: "Commands that coding CLIs run as hooks (written by 'ctxwin setup')",
    register: async (program) => (await import("./hook/hook-command.js")).registerHookCommand({ program }),
  },
  {
    name: "setup",
    term: "setup [options] [client]",
    description: "Register ctxwin's MCP server and SessionStart hook with Claude Code or Codex (--remove undoes it)",
    register: async (program) => (await import("./setup/setup-command.js")).registerSetupCommand({ program }),
  },
];

/** The command a command line runs (`ctxwin help <command>` included), if it names one. */
function commandNameOf(argv: readonly string[]): string | undefined {
  const words = argv.slice(2).filter((argument) => !argument.startsWith("-"));
  return words[0] === "help" ? words[1] : words[0];
}

/**
 * The whole `ctxwin` program, configured to report usage errors as one line (command-line.ts).
 * With `argv`, only the command it names is loaded; without, every command is (tests, help).
 *
 * @example
 * const program = await createProgram({ argv: ["node", "ctxwin", "eval", "--report", "results.jsonl"] });
 * await runCommandLine(program, ["node", "ctxwin", "eval", "--report", "results.jsonl"]);
 */
export async function createProgram({ argv }: { argv?: readonly string[] } = {}): Promise<Command> {
  const program = new Command().name("ctxwin").description(packageJson().description).version(packageJson().version);
  const wanted = argv === undefined ? undefined : commandNameOf(argv);
  const placeholders = new Map<Command, CommandEntry>();
  for (const entry of COMMANDS) {
    if (argv === undefined || entry.name === wanted) await entry.register(program, packageJson().version);
    else placeholders.set(program.command(entry.name).description(entry.description), entry);
  }
  program.configureHelp({
    subcommandTerm(command: Command): string {
      return placeholders.get(command)?.term ?? Help.prototype.subcommandTerm.call(this, command);
    },
  });
  configureCommandLine(program);
  return program;
}
