#!/usr/bin/env node
/**
 * The `ctxwin` executable. `ctxwin hook …` (what Claude Code and Codex run at every session
 * start, where each second counts) loads only the hook command; everything else loads the program
 * (program.ts), which loads only the module of the command it runs (create-program.ts).
 */
import module from "node:module";

// Compiled code of ctxwin and of the packages it loads is cached between runs (Node 22.1 and
// later; the cache lives in the system's temporary folder): a start after the first skips parsing.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// Lets a read-only command open a store in a folder this user cannot write (as an immutable
// snapshot, `file:` URI): better-sqlite3 reads this setting when it first opens a database.
process.env.SQLITE_USE_URI ??= "1";

if (process.argv[2] === "hook") {
  const { runHookProgram } = await import("./hook/hook-program.js");
  await runHookProgram(process.argv);
} else {
  await import("./program.js");
}
