import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StoreOptionsError } from "./errors.js";
import { openStore, type OpenStoreOptions } from "./open-store.js";

describe("openStore refuses options it does not know", () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), "ctxwin-open-store-"));
    vi.spyOn(process, "cwd").mockReturnValue(directory);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const refusal = (options: unknown) => {
    try {
      openStore(options as OpenStoreOptions);
    } catch (error) {
      return error;
    }
    throw new Error(`openStore(${JSON.stringify(options)}) was accepted`);
  };

  it("names a misspelt option and writes no file", () => {
    const error = refusal({ paht: path.join(directory, "x.db") });
    expect(StoreOptionsError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ unknownOptions: ["paht"] });
    expect((error as Error).message).toContain("'paht'");
    expect((error as Error).message).toContain("'path'");
    expect(readdirSync(directory)).toEqual([]);
  });

  it("refuses another backend's option and says whose it is", () => {
    const sqliteOnMemory = refusal({ backend: "memory", path: path.join(directory, "x.db") });
    expect(StoreOptionsError.isInstance(sqliteOnMemory)).toBe(true);
    expect((sqliteOnMemory as Error).message).toMatch(/'path' \(an option of the sqlite backend\)/);
    const serverOnSqlite = refusal({ backend: "sqlite", url: "postgres://localhost/db" });
    expect((serverOnSqlite as Error).message).toMatch(/'url' \(an option of the postgres backend\)/);
    const fileOnServer = refusal({ url: "postgres://localhost/db", directory });
    expect((fileOnServer as Error).message).toMatch(/the postgres backend does not know the option 'directory'/);
    expect(existsSync(path.join(directory, ".ctxwin"))).toBe(false);
  });

  it("refuses an unknown backend and a non-object", () => {
    expect(StoreOptionsError.isInstance(refusal({ backend: "mysql" }))).toBe(true);
    expect(StoreOptionsError.isInstance(refusal("ctxwin.db"))).toBe(true);
  });

  it("never turns a url into the default SQLite file", async () => {
    let store: ReturnType<typeof openStore> | undefined;
    try {
      store = openStore({ url: "postgres://127.0.0.1:1/none" });
    } catch (error) {
      expect(StoreOptionsError.isInstance(error)).toBe(true);
    }
    expect(store?.backend).not.toBe("sqlite");
    await store?.close();
    expect(existsSync(path.join(directory, ".ctxwin"))).toBe(false);
  });

  it("accepts known options, and undefined values of any key", async () => {
    const store = openStore({
      path: path.join(directory, "ok.db"),
      durability: "normal",
      ...({ unused: undefined } as object),
    });
    expect(store.backend).toBe("sqlite");
    await store.close();
    const memory = openStore({ backend: "memory", maxRowBytes: 1000 });
    expect(memory.backend).toBe("memory");
    await memory.close();
  });
});
