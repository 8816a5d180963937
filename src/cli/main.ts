#!/usr/bin/env node
/**
 * The `ctxwin` command: `history` inspects stored sessions; the demo and chat commands arrive with the CLI issue. This
 * entry already answers `--version` and `--help` so that `npx ctxwin` works after `npm install`.
 */
import { readFileSync } from "node:fs";
import { Command } from "commander";
import { registerHistoryCommand } from "./history/history-command.js";
import { exitQuietlyOnClosedOutput } from "./exit-on-closed-output.js";

const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string; description: string };

const program = new Command()
  .name("ctxwin")
  .description(packageJson.description)
  .version(packageJson.version)
  .showHelpAfterError();

exitQuietlyOnClosedOutput();
registerHistoryCommand({ program });

await program.parseAsync(process.argv);
if (process.argv.length <= 2) program.outputHelp();
