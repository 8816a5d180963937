/**
 * `ctxwin doctor`: a healthy store (the built binary in a child process; the other cases through the
 * same command tree in this process, run-ctxwin-in-process.ts), a damaged search index rebuilt in
 * place, and a damaged history salvaged to JSONL and imported into a new store with `ctxwin
 * import`; bad command lines exit 2, damage that remains exits 1.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RowInput } from "../../core/row.js";
import { DEFAULT_STORE_PATH, openStore } from "../../store/open-store.js";
import { middleLeafOf, overwritePage, rootPageOf } from "../../store/sqlite/test-support/damage-page.js";
import { runCtxwinInProcess } from "../test-support/run-ctxwin-in-process.js";
import { runCtxwin } from "../test-support/run-ctxwin.js";

vi.setConfig({ testTimeout: 120_000 });

const SESSIONS = ["alpha", "beta"];
const ROWS = 60;
const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const text = (value: string): RowInput => ({ role: "user", parts: [{ type: "text", text: value }] });

/** A project whose store holds two sessions of `ROWS` rows each. */
async function project(): Promise<{ directory: string; database: string }> {
  const directory = mkdtempSync(path.join(tmpdir(), "ctxwin-doctor-"));
  folders.push(directory);
  const store = openStore({ directory });
  for (let index = 0; index < ROWS; index += 1) {
    for (const sessionId of SESSIONS)
      await store.append(sessionId, [text(`${sessionId} note ${index} ${"padding ".repeat(40)}`)]);
  }
  await store.close();
  return { directory, database: path.join(directory, DEFAULT_STORE_PATH) };
}

describe("ctxwin doctor", () => {
  it("says a healthy store is healthy (exit 0) and refuses --dir with --db (exit 2, one line)", async () => {
    const { directory, database } = await project();
    const healthy = await runCtxwin(["doctor", "--dir", directory], { cwd: directory });
    expect(healthy).toMatchObject({ status: 0, stderr: "" });
    // Then what the store holds of embeddings (doctor-embeddings.test.ts).
    expect(healthy.stdout.startsWith(`No damage found in ${database}.\nEmbeddings: none stored`)).toBe(true);
    const both = await runCtxwinInProcess(["doctor", "--dir", directory, "--db", database], { cwd: directory });
    expect(both.status).toBe(2);
    expect(both.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(both.stderr).toMatch(/cannot be used with/);
  });

  it("rebuilds a damaged search index in place; history search works again", async () => {
    const { directory, database } = await project();
    overwritePage(database, rootPageOf(database, "ctxwin_search_words_config"));
    const refused = await runCtxwinInProcess(["history", "search", "beta", "note 7", "--ranked", "--dir", directory], {
      cwd: directory,
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(/is damaged .*Run 'ctxwin doctor --db /);
    const doctor = await runCtxwinInProcess(["doctor", "--dir", directory, "--json"], { cwd: directory });
    expect(doctor.status).toBe(0);
    expect(JSON.parse(doctor.stdout)).toMatchObject({
      condition: "repaired",
      rowsIndexed: SESSIONS.length * ROWS,
      writable: true,
    });
    const search = await runCtxwinInProcess(["history", "search", "beta", "note 7", "--dir", directory, "--json"], {
      cwd: directory,
    });
    expect(search.status).toBe(0);
    expect((JSON.parse(search.stdout) as unknown[]).length).toBeGreaterThan(0);
  });

  it("salvages a damaged history to JSONL that ctxwin import loads into a new store", async () => {
    const { directory, database } = await project();
    overwritePage(database, middleLeafOf(database, "ctxwin_rows"));
    const salvageFile = path.join(directory, "rows.jsonl");
    writeFileSync(salvageFile, "keep me");
    const exists = await runCtxwinInProcess(["doctor", "--dir", directory, "--salvage", salvageFile], {
      cwd: directory,
    });
    expect(exists.status).toBe(1);
    expect(exists.stderr).toMatch(/already exists; pass --salvage a new file name/);
    rmSync(salvageFile);

    const doctor = await runCtxwinInProcess(["doctor", "--dir", directory, "--salvage", salvageFile], {
      cwd: directory,
    });
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toMatch(/is damaged beyond its search indexes/);
    const salvaged = /Salvaged (\d+) row\(s\) of 2 session\(s\)/.exec(doctor.stdout);
    expect(salvaged, doctor.stdout).not.toBeNull();
    const count = Number(salvaged?.[1]);
    expect(count).toBeGreaterThan(SESSIONS.length * ROWS - 30);
    expect(count).toBeLessThan(SESSIONS.length * ROWS);

    renameSync(database, `${database}.damaged-copy`);
    const imported = await runCtxwinInProcess(["import", salvageFile, "--dir", directory, "--json"], {
      cwd: directory,
    });
    expect(imported.stderr).toBe("");
    expect(imported.status).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ rowsAdded: count });
    const sessions = await runCtxwinInProcess(["history", "sessions", "--dir", directory, "--json"], {
      cwd: directory,
    });
    expect(sessions.status).toBe(0);
    const listed = JSON.parse(sessions.stdout) as { session_id: string; last_item: string }[];
    expect(listed.map((entry) => entry.session_id).sort()).toEqual(SESSIONS);
    expect(listed.reduce((total, entry) => total + Number(entry.last_item), 0)).toBe(count);
    expect((await runCtxwinInProcess(["doctor", "--dir", directory], { cwd: directory })).status).toBe(0);
  });
});
