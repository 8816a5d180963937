/**
 * The `ctxwin` program as the executable runs it (loaded by main.ts): the command tree of
 * create-program.ts on `process.argv`, with only the command it names loaded; help when no
 * command is given.
 */
import { runCommandLine } from "./command-line.js";
import { createProgram } from "./create-program.js";
import { exitQuietlyOnClosedOutput } from "./exit-on-closed-output.js";

exitQuietlyOnClosedOutput();
const program = await createProgram({ argv: process.argv });
await runCommandLine(program, process.argv);
if (process.argv.length <= 2) program.outputHelp();
