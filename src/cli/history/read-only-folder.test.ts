/**
 * A project whose store folder this user cannot write (issue 13, item 7): `ctxwin history`
 * reads it without writing anything, and a command that writes (`ctxwin import`) fails with one
 * line that says why; `ctxwin serve` serves it read-only. As root (CI) the commands run as `nobody`, since permissions do not stop root.
 */
import { createHash } from "node:crypto";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createInterface } from "node:readline";
import { runUnprivileged, spawnUnprivileged, UNPRIVILEGED_SKIP_REASON } from "../../../test/unprivileged-user.js";
import type { RowInput } from "../../core/row.js";
import { DEFAULT_STORE_PATH, openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";
import { CTXWIN_BINARY } from "../test-support/run-ctxwin.js";

// Each test runs the built CLI a few times in child processes; leave room for a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const text = (value: string): RowInput => ({ role: "user", parts: [{ type: "text", text: value }] });
const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe.skipIf(UNPRIVILEGED_SKIP_REASON !== undefined)(
  `a store in a folder this user cannot write${UNPRIVILEGED_SKIP_REASON === undefined ? "" : ` (skipped: ${UNPRIVILEGED_SKIP_REASON})`}`,
  () => {
    let project: string;
    let storeFolder: string;
    let database: string;
    const opened: HistoryStore[] = [];

    const ctxwin = (...args: string[]) => runUnprivileged(process.execPath, [CTXWIN_BINARY, ...args], { cwd: project });
    const lock = () => {
      chmodSync(database, 0o444);
      chmodSync(storeFolder, 0o555);
      chmodSync(project, 0o555);
    };

    beforeEach(async () => {
      project = mkdtempSync(path.join(tmpdir(), "ctxwin-read-only-"));
      database = path.join(project, DEFAULT_STORE_PATH);
      storeFolder = path.dirname(database);
      const store = openStore({ directory: project });
      await store.append("s", [text("first question"), text("second question")]);
      await store.close();
      writeFileSync(
        path.join(project, "more.jsonl"),
        JSON.stringify({
          sessionId: "s",
          seq: 3,
          id: "x3",
          role: "user",
          parts: [{ type: "text", text: "imported" }],
          createdAt: "2026-01-01T00:00:00.000Z",
        }) + "\n",
      );
      chmodSync(path.join(project, "more.jsonl"), 0o444);
      lock();
    });

    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
      chmodSync(project, 0o755);
      chmodSync(storeFolder, 0o755);
      rmSync(project, { recursive: true, force: true });
    });

    it("lists, searches and exports the history without creating or changing any file", async () => {
      const before = digest(database);
      const sessions = await ctxwin("history", "sessions", "--dir", project, "--json");
      expect(sessions.stderr).toBe("");
      expect(sessions.status).toBe(0);
      expect((JSON.parse(sessions.stdout) as { session_id: string }[]).map((entry) => entry.session_id)).toEqual(["s"]);
      const search = await ctxwin("history", "search", "s", "second", "--dir", project, "--json");
      expect(search.status).toBe(0);
      expect(search.stdout).toContain("second question");
      const exported = await ctxwin("history", "export", "s", "--dir", project);
      expect(exported.status).toBe(0);
      expect(exported.stdout.trimEnd().split("\n")).toHaveLength(2);
      expect(readdirSync(storeFolder)).toEqual(["ctxwin.db"]);
      expect(digest(database)).toBe(before);
    });

    it("reads the newest rows while a writer with access holds them in the write-ahead log", async () => {
      chmodSync(storeFolder, 0o755);
      chmodSync(database, 0o644);
      const writer = openStore({ directory: project });
      opened.push(writer);
      await writer.append("s", [text("still in the wal")]);
      lock();
      const read = await ctxwin("history", "read", "s", "3", "--dir", project);
      expect(read.stderr).toBe("");
      expect(read.status).toBe(0);
      expect(read.stdout).toContain("still in the wal");
    });

    it("refuses a write with one line that says why, and writes nothing", async () => {
      const before = digest(database);
      const result = await ctxwin("import", path.join(project, "more.jsonl"), "--dir", project);
      expect(result.status).toBe(1);
      expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(
        /Cannot write to the ctxwin history '.*ctxwin\.db': this user cannot write the file or its folder/,
      );
      expect(readdirSync(storeFolder)).toEqual(["ctxwin.db"]);
      expect(digest(database)).toBe(before);
    });

    it("ctxwin serve serves it read-only: browsing works, a write is answered 409 read-only", async () => {
      const child = spawnUnprivileged(
        process.execPath,
        [CTXWIN_BINARY, "serve", "--dir", project, "--workspace", project],
        { cwd: project },
      );
      let errorOutput = "";
      child.stderr.on("data", (chunk: Buffer) => (errorOutput += chunk.toString("utf8")));
      const exited = new Promise((resolve) => child.on("close", resolve));
      try {
        const line = await new Promise<string>((resolve, reject) => {
          createInterface({ input: child.stdout }).on("line", (text) => {
            if (text.startsWith("ctxwin serve: http")) resolve(text);
          });
          void exited.then(() => reject(new Error(`serve ended early: ${errorOutput}`)));
        });
        const url = new URL(line.replace(/^ctxwin serve: /, ""));
        const headers = { Authorization: `Bearer ${url.searchParams.get("token") ?? ""}` };
        const sessions = await fetch(`${url.origin}/api/sessions`, { headers });
        expect(sessions.status).toBe(200);
        expect(JSON.stringify(await sessions.json())).toContain('"s"');
        const clear = await fetch(`${url.origin}/api/sessions/s/clear`, { method: "POST", headers });
        expect(clear.status).toBe(409);
        expect(await clear.json()).toMatchObject({
          error: { code: "read-only", message: expect.stringMatching(/Cannot write to the ctxwin history/) as unknown },
        });
        expect(errorOutput).toMatch(/serving the history read-only/);
      } finally {
        child.kill("SIGTERM");
        await exited;
      }
    });
  },
);
