/**
 * The `ctxwin` command tree with every subcommand: `demo` runs the offline demonstration, `chat` an
 * agent on a real provider, `history` inspects stored sessions, `import` loads transcripts, `mcp`
 * serves the history to MCP clients, `serve` opens the web UI, `eval` measures rollover against
 * compaction on a model, `setup` registers ctxwin with Claude Code or Codex, `hook` is what their
 * hooks run. A fresh tree per call: commander keeps parsed options on its commands, so one tree
 * serves one command line (program.ts, the executable's; tests run several in one process).
 */
import { readFileSync } from "node:fs";
import { Command } from "commander";
import { registerChatCommand } from "./chat/chat-command.js";
import { registerDemoCommand } from "./demo/demo-command.js";
import { registerDoctorCommand } from "./doctor/doctor-command.js";
import { registerEmbedCommand } from "./embed/embed-command.js";
import { registerEvalCommand } from "./eval/eval-command.js";
import { registerHistoryCommand } from "./history/history-command.js";
import { registerHookCommand } from "./hook/hook-command.js";
import { registerImportCommand } from "./import/import-command.js";
import { registerMcpCommand } from "./mcp/mcp-command.js";
import { registerServeCommand } from "./serve/serve-command.js";
import { registerSetupCommand } from "./setup/setup-command.js";
import { configureCommandLine } from "./command-line.js";

const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string; description: string };

/**
 * The whole `ctxwin` program, configured to report usage errors as one line (command-line.ts).
 *
 * @example
 * const program = createProgram();
 * await runCommandLine(program, ["node", "ctxwin", "eval", "--report", "results.jsonl"]);
 */
export function createProgram(): Command {
  const program = new Command().name("ctxwin").description(packageJson.description).version(packageJson.version);
  registerDemoCommand({ program });
  registerChatCommand({ program });
  registerHistoryCommand({ program });
  registerImportCommand({ program });
  registerEmbedCommand({ program });
  registerMcpCommand({ program, version: packageJson.version });
  registerServeCommand({ program });
  registerDoctorCommand({ program });
  registerEvalCommand({ program });
  registerHookCommand({ program });
  registerSetupCommand({ program });
  configureCommandLine(program);
  return program;
}
