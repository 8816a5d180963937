/**
 * node-postgres is loaded on a PostgreSQL store's first call, never by importing ctxwin or opening
 * a SQLite store (ADR 0037). A fresh `node` on the built package refuses to resolve `pg`, so any
 * import of it shows up as a failure.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/** The built package (the vitest setup builds dist/ before the tests). */
const packageEntry = pathToFileURL(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../dist/index.js"),
).href;
/**
 * A resolve hook that refuses `pg`: in-thread (`registerHooks`, Node 22.15 and later) where there is
 * one, since Node 26 deprecates `register` (DEP0205, a warning on stderr); `register` before that.
 */
const refusePg = `
const refuse = (specifier) => {
  if (specifier === "pg") throw new Error("node-postgres was loaded");
};
const hooks =
  "export async function resolve(specifier, context, next) { " +
  "if (specifier === 'pg') throw new Error('node-postgres was loaded'); return next(specifier, context); }";
if (typeof module.registerHooks === "function") {
  module.registerHooks({ resolve: (specifier, context, next) => (refuse(specifier), next(specifier, context)) });
} else {
  module.register("data:text/javascript," + encodeURIComponent(hooks));
}`;
const folder = mkdtempSync(path.join(tmpdir(), "ctxwin-lazy-driver-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs `body` (an async module body with `openStore` in scope) in a node that cannot load pg. */
function withoutPg(body: string): { status: number | null; stdout: string; stderr: string } {
  const script = `
import module from "node:module";
${refusePg}
const { openStore } = await import(${JSON.stringify(packageEntry)});
${body}`;
  return spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: folder, encoding: "utf8" });
}

describe("the PostgreSQL driver is loaded lazily", () => {
  it("importing ctxwin and using a SQLite store never loads node-postgres", () => {
    const result = withoutPg(`
const store = openStore({ path: "lazy.db" });
await store.append("s", [{ role: "user", parts: [{ type: "text", text: "hello" }] }]);
console.log(await store.lastSeq("s"));
await store.close();
const server = openStore({ url: "postgres://agent@127.0.0.1:1/none" });
await server.close();
console.log("closed");`);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("1\nclosed\n");
    expect(result.status).toBe(0);
  });

  it("the first call on a PostgreSQL store loads it (and fails here, where it cannot be)", () => {
    const result = withoutPg(`
const server = openStore({ url: "postgres://agent@127.0.0.1:1/none" });
const error = await server.lastSeq("s").catch((caught) => caught);
console.log(error.message);
await server.close();`);
    expect(result.stdout).toContain("node-postgres was loaded");
    expect(result.status).toBe(0);
  });
});
