/**
 * `--store <url|file>` end to end on a real PostgreSQL server: a SQLite project moves to Postgres
 * with `ctxwin history export` + `ctxwin import --store`, and back into a new SQLite file, without
 * loss; demo, history, serve and mcp work on the server (history and mcp read-only); doctor says
 * it checks files only; a bad value is a usage error (exit 2) and an unreachable server one clear
 * line (exit 1). One command runs as the built binary in a child process (the first export); the
 * others through the same command tree in this process (run-ctxwin-in-process.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openStore } from "../store/open-store.js";
import { text } from "../store/test-support/conformance-rows.js";
import { withTestDatabase, postgresUnavailable, type TestDatabase } from "../store/test-support/postgres-database.js";
import { seedMixedHistory } from "../tools/session-history/test-support/mixed-history.js";
import { runServe } from "./serve/serve-command.js";
import { describeStoreOptions, parseStoreFlag, storeOptionsOf } from "./store-flag.js";
import { startMcp } from "./mcp/test-support/mcp-client.js";
import { runCtxwinInProcess } from "./test-support/run-ctxwin-in-process.js";
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
    expect(storeOptionsOf({ store: "postgres://agent@db/agents", directory: "/p" })).toEqual({
      url: "postgres://agent@db/agents",
    });
    expect(storeOptionsOf({ store: "postgresql://db/agents", directory: "/p" })).toEqual({
      url: "postgresql://db/agents",
    });
    expect(storeOptionsOf({ store: "other.db", directory: "/p" })).toEqual({ path: path.resolve("other.db") });
    expect(storeOptionsOf({ directory: "/p" })).toEqual({ directory: "/p" });
    expect(() => storeOptionsOf({ store: "mysql://db/agents", directory: "/p" })).toThrow(/only postgres:\/\//);
    expect(describeStoreOptions({ url: "postgres://agent:secret@db/agents" })).toBe("postgres://agent@db/agents");
    expect(describeStoreOptions({ directory: "/p" }, {})).toBe(path.join("/p", ".ctxwin", "ctxwin.db"));
  });

  it("refuses other schemes, URLs that do not parse, bad schema names and an empty value", () => {
    expect(parseStoreFlag("postgres://db/agents?schema=team_a")).toBe("postgres://db/agents?schema=team_a");
    expect(parseStoreFlag("./history.db")).toBe("./history.db");
    expect(() => parseStoreFlag("sqlite://x.db")).toThrow(/only postgres:\/\//);
    expect(() => parseStoreFlag("postgres://db:port/agents")).toThrow(/does not parse/);
    expect(() => parseStoreFlag("postgres://db/agents?schema=Team-A")).toThrow(/not a usable schema name/);
    expect(() => parseStoreFlag(" ")).toThrow(/expected a postgres:\/\/ URL or a SQLite file/);
  });
});

describe("--store usage errors", () => {
  it("are one line and exit code 2 on every command, before anything is opened", async () => {
    const project = temporaryDirectory();
    const commands = [
      ["demo", "--files", "1"],
      ["history", "sessions"],
      ["import", "x.jsonl"],
      ["serve"],
      ["mcp"],
      ["doctor"],
      ["chat", "--model", "openai:gpt-4o-mini"],
    ];
    const results = [];
    for (const command of commands)
      results.push(await runCtxwinInProcess([...command, "--store", "mysql://db/agents"], { cwd: project }));
    results.forEach((result, index) => {
      const name = commands[index]?.slice(0, commands[index]?.[0] === "history" ? 2 : 1).join(" ");
      expect(result.status, `${name}: ${result.stderr}`).toBe(2);
      expect(result.stderr.trim().split("\n"), name).toHaveLength(1);
      expect(result.stderr, name).toMatch(/--store .*only postgres:\/\//);
    });
  });
});

describe.skipIf(postgresUnavailable !== "")("--store on a PostgreSQL server", () => {
  let database: TestDatabase;
  withTestDatabase((created) => (database = created));
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
    const imported = await runCtxwinInProcess(["import", file, "--store", url, "--json"], { cwd: project });
    expect(imported.status, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({
      rowsAdded: exported.stdout.trim().split("\n").length,
      malformedCount: 0,
    });
    const fromServer = await runCtxwinInProcess(["history", "export", "s1", "--include-cleared", "--store", url], {
      cwd: project,
    });
    expect(fromServer.stdout).toBe(exported.stdout);
    const again = await runCtxwinInProcess(["import", file, "--store", url, "--json"], { cwd: project });
    expect(JSON.parse(again.stdout)).toMatchObject({ rowsAdded: 0 });

    const back = path.join(temporaryDirectory(), "back.db");
    const serverFile = path.join(project, "server.jsonl");
    writeFileSync(serverFile, fromServer.stdout);
    expect((await runCtxwinInProcess(["import", serverFile, "--store", back], { cwd: project })).status).toBe(0);
    const roundTrip = await runCtxwinInProcess(["history", "export", "s1", "--include-cleared", "--store", back], {
      cwd: project,
    });
    expect(roundTrip.stdout).toBe(exported.stdout);

    const windows = await runCtxwinInProcess(["history", "windows", "s1", "--store", url, "--json"], { cwd: project });
    const local = await runCtxwinInProcess(["history", "windows", "s1", "--json"], { cwd: project });
    expect(JSON.parse(windows.stdout)).toEqual(JSON.parse(local.stdout));
  });

  it("runs the demo on the server, and history reads it there", async () => {
    const project = temporaryDirectory();
    const url = inSchema("demo");
    const demo = await runCtxwinInProcess(["demo", "--store", url, "--json", "--files", "6", "--dir", project], {
      cwd: project,
    });
    expect(demo.status, demo.stderr).toBe(0);
    const report = JSON.parse(demo.stdout) as {
      sessionId: string;
      database: string;
      rows: number;
      windows: number;
      inspect: string[];
    };
    expect(report.database).toBe(url);
    expect(report.inspect[0]).toContain(`--store "${url}"`);
    const items = await runCtxwinInProcess(
      ["history", "items", report.sessionId, "w:0", "--store", url, "--include-cleared", "--json"],
      { cwd: project },
    );
    expect(items.status, items.stderr).toBe(0);
    expect((JSON.parse(items.stdout) as unknown[]).length).toBeGreaterThan(0);
    const usage = await runCtxwinInProcess(["history", "usage", report.sessionId, "--store", url, "--json"], {
      cwd: project,
    });
    expect(usage.status, usage.stderr).toBe(0);
    expect((JSON.parse(usage.stdout) as { windows: unknown[] }).windows).toHaveLength(report.windows);
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
    const host = {
      stderr: () => undefined,
      stdout: () => undefined,
      env: {},
      onStopSignal: () => undefined,
      setExitCode: () => undefined,
    };
    const server = await runServe({ flags: { dir: project, workspace: project, store: inSchema("served") }, host });
    try {
      const response = await fetch(`${server.origin}/api/sessions`, {
        headers: { Authorization: `Bearer ${server.token}` },
      });
      const body = (await response.json()) as { sessions: { sessionId: string }[] };
      expect(body.sessions.map((session) => session.sessionId)).toEqual(["on-the-server"]);
    } finally {
      await server.close();
    }
  });

  it("history and mcp read the server without writing: a missing schema is an error and stays missing", async () => {
    const project = temporaryDirectory();
    const missing = await runCtxwinInProcess(["history", "sessions", "--store", inSchema("never_made")], {
      cwd: project,
    });
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toMatch(/No ctxwin store in the schema 'never_made' .*read-only open never creates one/);
    const url = inSchema("for_mcp");
    const store = openStore({ url });
    await seedMixedHistory(store, "over-mcp");
    await store.close();
    const mcp = await startMcp({ args: ["--store", url], cwd: project });
    try {
      const { result } = await mcp.history({ action: "list_sessions" });
      expect(JSON.stringify(result)).toContain("over-mcp");
      const { result: hits } = await mcp.history({ action: "search", query: "the", mode: "literal" });
      expect(hits["ok"]).toBe(true);
    } finally {
      await mcp.close();
    }
    const check = openStore({ url: database.url, schema: "never_made", readOnly: true });
    try {
      await expect(check.sessions()).rejects.toThrow(/No ctxwin store in the schema 'never_made'/);
    } finally {
      await check.close();
    }
  });

  it("doctor reads a server's store and reports its embeddings, writing nothing; --salvage is for files (exit 2)", async () => {
    const project = temporaryDirectory();
    const store = openStore({ url: database.url, schema: "doctor_read" });
    await store.append("checked", [text("hello")]);
    await store.close();
    const url = `${database.url}?schema=doctor_read`;
    const report = await runCtxwinInProcess(["doctor", "--store", url], { cwd: project });
    expect(report.status, report.stderr).toBe(0);
    expect(report.stdout).toMatch(
      /^PostgreSQL store at postgres:\/\/\S+ \(schema 'doctor_read'\): 1 session\(s\), readable\.\n.*pg_amcheck.*\nEmbeddings: none stored/,
    );
    const json = await runCtxwinInProcess(["doctor", "--store", url, "--json"], { cwd: project });
    expect(JSON.parse(json.stdout)).toMatchObject({
      backend: "postgres",
      schema: "doctor_read",
      sessions: 1,
      embeddings: { vectors: false, models: [] },
    });

    const missing = await runCtxwinInProcess(["doctor", "--store", `${database.url}?schema=never_doctored`], {
      cwd: project,
    });
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toMatch(/No ctxwin store in the schema 'never_doctored'/);

    const salvage = await runCtxwinInProcess(
      [
        "doctor",
        "--store",
        "postgres://agent:secret@db.internal/agents",
        "--salvage",
        path.join(project, "rows.jsonl"),
      ],
      { cwd: project },
    );
    expect(salvage.status).toBe(2);
    expect(salvage.stderr).toMatch(
      /--salvage reads SQLite files; postgres:\/\/agent@db\.internal\/agents is a PostgreSQL server.*Nothing was written/,
    );
    expect(salvage.stderr).not.toContain("secret");
  });

  it("an unreachable server is one line and exit code 1, on reading and writing commands", async () => {
    const project = temporaryDirectory();
    const down = "postgres://nobody:secret@127.0.0.1:1/none";
    const transcript = fileURLToPath(new URL("../import/fixtures/claude-code-session.jsonl", import.meta.url));
    for (const command of [
      ["history", "sessions"],
      ["demo", "--files", "1", "--json"],
      ["import", "claude-code", transcript],
    ]) {
      const result = await runCtxwinInProcess([...command, "--store", down], { cwd: project });
      expect(result.status, command.join(" ")).toBe(1);
      expect(result.stderr.trim().split("\n"), command.join(" ")).toHaveLength(1);
      expect(result.stderr).toMatch(
        /Cannot connect to the PostgreSQL server at postgres:\/\/nobody@127\.0\.0\.1:1\/none/,
      );
      expect(result.stderr).not.toContain("secret");
    }
  });
});
