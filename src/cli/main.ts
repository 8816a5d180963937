#!/usr/bin/env node
/**
 * The `ctxwin` command. The demo, chat and history commands arrive with the CLI issue; this
 * entry already answers `--version` and `--help` so that `npx ctxwin` works after `npm install`.
 */
import { readFileSync } from "node:fs";
import { Command } from "commander";

const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string; description: string };

const program = new Command()
  .name("ctxwin")
  .description(packageJson.description)
  .version(packageJson.version)
  .showHelpAfterError();

await program.parseAsync(process.argv);
if (process.argv.length <= 2) program.outputHelp();
