/**
 * `--store <url>` end to end on a real PostgreSQL server: a SQLite project moves to Postgres with
 * `ctxwin history export` + `ctxwin import --store`, and back into a new SQLite file, without
 * loss; demo, history and serve work on the server; an unreachable server is one clear line.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openStore } from "../store/open-store.js";
import { createTestDatabase, postgresUnavailable, type TestDatabase } from "../store/test-support/postgres-database.js";
import { seedMixedHistory } from "../tools/session-history/test-support/mixed-history.js";
import { runServe } from "./serve/serve-command.js";
import { describeStoreOptions, storeOptionsOf } from "./store-flag.js";
import { runCtxwin } from "./test-support/run-ctxwin.js";

vi.setConfig({ testTimeout: 120_000 });

const directories: string[] = [];
const temporaryDirectory = () => {
  const directory = mkdtempSync(path.join(tmpdir(), "ctxwin-store-flag-"));
  directories.push(directory);
  return directory;
};
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe("storeOptionsOf", () => {
  it("maps a server URL, a file path, or nothing to openStore's options", () => {
    expect(storeOptionsOf({ store: "postgres://agent@db/agents", directory: "/p" })).toEqual({ url: "postgres://agent@db/agents" });
    expect(storeOptionsOf({ store: "postgresql://db/agents", directory: "/p" })).toEqual({ url: "postgresql://db/agents" });
    expect(storeOptionsOf({ store: "other.db", directory: "/p" })).toEqual({ path: path.resolve("other.db") });
    expect(storeOptionsOf({ directory: "/p" })).toEqual({ directory: "/p" });
    expect(() => storeOptionsOf({ store: "mysql://db/agents", directory: "/p" })).toThrow(/only postgres:\/\//);
    expect(describeStoreOptions({ url: "postgres://agent:secret@db/agents" })).toBe("postgres://agent@db/agents");
    expect(describeStoreOptions({ directory: "/p" }, {})).toBe(path.join("/p", ".ctxwin", "ctxwin.db"));
  });
});

describe.skipIf(postgresUnavailable !== "")("--store on a PostgreSQL server", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });
  /** The test database's URL naming a schema of its own (`?schema=`). */
  const inSchema = (schema: string) => {
    const url = new URL(database.url);
    url.searchParams.set("schema", schema);
    return url.toString();
  };

  it("moves a SQLite project to Postgres and back without loss", async () => {
    const project = temporaryDirectory();
    const source = openStore({ directory: project });
    await seedMixedHistory(source, "s1");
    await source.close();
    const exported = await runCtxwin(["history", "export", "s1", "--include-cleared"], { cwd: project });
    expect(exported.status, exported.stderr).toBe(0);
    const file = path.join(project, "s1.jsonl");
    writeFileSync(file, exported.stdout);

    const url = inSchema("moved");
    const imported = await runCtxwin(["import", file, "--store", url, "--json"], { cwd: project });
    expect(imported.status, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ rowsAdded: exported.stdout.trim().split("\n").length, malformedCount: 0 });
    const fromServer = await runCtxwin(["history", "export", "s1", "--include-cleared", "--store", url], { cwd: project });
    expect(fromServer.stdout).toBe(exported.stdout);
    const again = await runCtxwin(["import", file, "--store", url, "--json"], { cwd: project });
    expect(JSON.parse(again.stdout)).toMatchObject({ rowsAdded: 0 });

    const back = path.join(temporaryDirectory(), "back.db");
    const serverFile = path.join(project, "server.jsonl");
    writeFileSync(serverFile, fromServer.stdout);
    expect((await runCtxwin(["import", serverFile, "--store", back], { cwd: project })).status).toBe(0);
    const roundTrip = await runCtxwin(["history", "export", "s1", "--include-cleared", "--store", back], { cwd: project });
    expect(roundTrip.stdout).toBe(exported.stdout);

    const windows = await runCtxwin(["history", "windows", "s1", "--store", url, "--json"], { cwd: project });
    const local = await runCtxwin(["history", "windows", "s1", "--json"], { cwd: project });
    expect(JSON.parse(windows.stdout)).toEqual(JSON.parse(local.stdout));
  });

  it("runs the demo on the server, and history reads it there", async () => {
    const project = temporaryDirectory();
    const url = inSchema("demo");
    const demo = await runCtxwin(["demo", "--store", url, "--json", "--files", "6", "--dir", project], { cwd: project });
    expect(demo.status, demo.stderr).toBe(0);
    const report = JSON.parse(demo.stdout) as { sessionId: string; database: string; rows: number; inspect: string[] };
    expect(report.database).toBe(url);
    expect(report.inspect[0]).toContain(`--store "${url}"`);
    const items = await runCtxwin(["history", "items", report.sessionId, "--store", url, "--include-cleared", "--json"], { cwd: project });
    expect(items.status, items.stderr).toBe(0);
    const store = openStore({ url });
    try {
      expect(await store.lastSeq(report.sessionId)).toBe(report.rows);
    } finally {
      await store.close();
    }
  });

  it("serves sessions from the server", async () => {
    const project = temporaryDirectory();
    const store = openStore({ url: database.url, schema: "served" });
    await store.append("on-the-server", [{ role: "user", parts: [{ type: "text", text: "hello" }] }]);
    await store.close();
    const host = { stderr: () => undefined, stdout: () => undefined, env: {}, onStopSignal: () => undefined, setExitCode: () => undefined };
    const server = await runServe({ flags: { dir: project, workspace: project, store: inSchema("served") }, host });
    try {
      const response = await fetch(`${server.origin}/api/sessions`, { headers: { Authorization: `Bearer ${server.token}` } });
      const body = (await response.json()) as { sessions: { sessionId: string }[] };
      expect(body.sessions.map((session) => session.sessionId)).toEqual(["on-the-server"]);
    } finally {
      await server.close();
    }
  });

  it("an unreachable server is one line and exit code 1", async () => {
    const project = temporaryDirectory();
    const result = await runCtxwin(["history", "sessions", "--store", "postgres://nobody:secret@127.0.0.1:1/none"], { cwd: project });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/Cannot connect to the PostgreSQL server at postgres:\/\/nobody@127\.0\.0\.1:1\/none/);
    expect(result.stderr).not.toContain("secret");
  });
});
