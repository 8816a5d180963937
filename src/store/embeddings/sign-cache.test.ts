import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SessionSigns, SignCache, signBitsOf } from "./sign-cache.js";
import { createSqliteVectorIndex } from "./sqlite-vector-index.js";

/** A 64-dimension vector whose first `ones` dimensions are positive. */
const vectorWith = (ones: number, dimensions = 64) =>
  Float32Array.from({ length: dimensions }, (_, index) => (index < ones ? 1 : -1));

describe("sign bits", () => {
  it("packs the sign of each dimension as sqlite-vec's vec_quantize_binary does", () => {
    expect([...signBitsOf(Float32Array.from([1, -1, 0, 2, ...Array.from({ length: 30 }, () => -1), 3]))]).toEqual([
      0b1001, 0b100,
    ]);
  });

  it("takes the k nearest by Hamming distance inside the seq bounds, the newer on a tie at the cut", () => {
    const signs = new SessionSigns(64);
    for (let seq = 1; seq <= 6; seq += 1) signs.add(seq * 10, seq, signBitsOf(vectorWith(seq <= 3 ? 64 : 0)));
    const query = signBitsOf(vectorWith(64));
    expect(signs.nearest(query, 0, Number.MAX_SAFE_INTEGER, 2)).toEqual([30, 20]);
    expect(signs.nearest(query, 1, 3, 5)).toEqual([20]);
    expect(signs.nearest(query, 0, Number.MAX_SAFE_INTEGER, 4)).toEqual([60, 30, 20, 10]);
  });

  it("scans with the WebAssembly kernel and in JavaScript to the same candidates, at any dimension", () => {
    let seed = 7;
    const noise = () => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed / 2 ** 32 - 0.5;
    };
    for (const dimensions of [100, 384, 1_536]) {
      const kernel = new SessionSigns(dimensions, { capacity: 8 });
      const javascript = new SessionSigns(dimensions, { useKernel: false });
      expect([kernel.usesKernel, javascript.usesKernel]).toEqual([true, false]);
      const vectors = Array.from({ length: 700 }, () => Float32Array.from({ length: dimensions }, noise));
      vectors.forEach((vector, row) => kernel.add(row + 1, row + 1, signBitsOf(vector)));
      const { ids, seqs, bits } = kernel.rows();
      javascript.addRows(ids, seqs, bits);
      const query = signBitsOf(Float32Array.from({ length: dimensions }, noise));
      const found = kernel.nearest(query, 50, 650, 40);
      expect(found).toHaveLength(40);
      expect(found.every((id) => id > 50 && id < 650)).toBe(true);
      expect(javascript.nearest(query, 50, 650, 40)).toEqual(found);
      kernel.compact();
      expect(kernel.nearest(query, 50, 650, 40)).toEqual(found);
    }
  });

  it("drops the least recently searched sessions once over its byte budget", () => {
    const cache = new SignCache(new SessionSigns(64).bytes * 2);
    for (const session of ["a", "b", "c"]) cache.set(1, session, new SessionSigns(64));
    expect(cache.peek(1, "a")).toBeUndefined();
    expect(cache.get(1, "b")).toBeDefined();
    cache.set(1, "d", new SessionSigns(64));
    expect([cache.peek(1, "b") !== undefined, cache.peek(1, "c") !== undefined]).toEqual([true, false]);
    expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
  });
});

describe("the SQLite sign cache", () => {
  const model = "test:signs";
  const write = (
    index: ReturnType<typeof createSqliteVectorIndex>,
    incarnation: string,
    seqs: number[],
    ones: number,
  ) =>
    index.write({
      sessionId: "s",
      incarnation,
      model,
      dimensions: 64,
      throughSeq: Math.max(...seqs),
      vectors: seqs.map((seq) => ({ seq, chunk: 0, vector: vectorWith(ones) })),
    });
  const nearest = (index: ReturnType<typeof createSqliteVectorIndex>, ones: number) =>
    index.nearest({
      sessionId: "s",
      model,
      vector: vectorWith(ones),
      lowSeq: 0,
      highSeq: Number.MAX_SAFE_INTEGER,
      limit: 1,
    });

  it("catches up on vectors another connection writes, and forgets a session deleted and recreated there", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-signs-")), "ctxwin.db");
    new Database(file).close();
    const searcher = createSqliteVectorIndex({ path: file });
    const writer = createSqliteVectorIndex({ path: file });
    write(writer, "i1", [1, 2], 10);
    expect(nearest(searcher, 60)).toEqual([{ seq: 2, similarity: expect.any(Number) }]);
    write(writer, "i1", [3], 60);
    expect(nearest(searcher, 60)[0]).toMatchObject({ seq: 3, similarity: 1 });
    expect(searcher.cacheBytes?.()).toBeGreaterThan(0);

    writer.deleteSession("s");
    write(writer, "i2", [1], 30);
    expect(nearest(searcher, 60).map((row) => row.seq)).toEqual([1]);
    searcher.close();
    writer.close();
  });

  it("builds the signs of a file embedded before the signs table existed", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-signs-")), "ctxwin.db");
    new Database(file).close();
    const first = createSqliteVectorIndex({ path: file });
    write(first, "i1", [1, 2, 3], 20);
    write(first, "i1", [4], 64);
    first.close();
    const db = new Database(file);
    db.exec("DROP TABLE ctxwin_embedding_signs");
    db.close();
    const reader = createSqliteVectorIndex({ path: file, readOnly: true });
    expect(nearest(reader, 64)[0]).toMatchObject({ seq: 4, similarity: 1 });
    reader.close();
    const again = createSqliteVectorIndex({ path: file });
    expect(nearest(again, 64)[0]).toMatchObject({ seq: 4, similarity: 1 });
    again.close();
    const check = new Database(file, { readonly: true });
    expect(check.prepare("SELECT count(*) FROM ctxwin_embedding_signs").pluck().get()).toBe(4);
    check.close();
  });

  /** A sign pattern no `vectorWith` has. */
  const alternating = Float32Array.from({ length: 64 }, (_, index) => (index % 2 === 0 ? 1 : -1));
  const blocksOf = (file: string) => {
    const db = new Database(file, { readonly: true });
    const exists =
      db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'ctxwin_embedding_sign_blocks'").get() !== undefined;
    const rows = exists
      ? (db
          .prepare(
            "SELECT incarnation, length(ids) / 8 AS count FROM ctxwin_embedding_sign_blocks ORDER BY last_vector_id",
          )
          .all() as { incarnation: string; count: number }[])
      : undefined;
    db.close();
    return rows;
  };
  const writeMany = (index: ReturnType<typeof createSqliteVectorIndex>, incarnation: string, rows: number) =>
    index.write({
      sessionId: "s",
      incarnation,
      model,
      dimensions: 64,
      throughSeq: rows,
      vectors: Array.from({ length: rows }, (_, row) => ({
        seq: row + 1,
        chunk: 0,
        vector: vectorWith((row + 1) % 64),
      })),
    });

  it("packs an old-layout file's per-row signs into blocks on a writable load, then reads the blocks and the rows written after them", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-signs-")), "ctxwin.db");
    new Database(file).close();
    const writer = createSqliteVectorIndex({ path: file });
    writeMany(writer, "i1", 2_100);
    expect(blocksOf(file)).toBeUndefined(); // the layout before blocks: one row per vector

    const reader = createSqliteVectorIndex({ path: file, readOnly: true });
    expect(nearest(reader, 5)[0]).toMatchObject({ similarity: 1 });
    reader.close();
    expect(blocksOf(file)).toBeUndefined();

    const packer = createSqliteVectorIndex({ path: file });
    expect(nearest(packer, 5)[0]).toMatchObject({ similarity: 1 });
    expect(blocksOf(file)).toEqual([
      { incarnation: "i1", count: 1_024 },
      { incarnation: "i1", count: 1_024 },
    ]);
    writer.write({
      sessionId: "s",
      incarnation: "i1",
      model,
      dimensions: 64,
      throughSeq: 3_000,
      vectors: [{ seq: 3_000, chunk: 0, vector: alternating }],
    });
    const search = (index: ReturnType<typeof createSqliteVectorIndex>, vector: Float32Array, limit: number) =>
      index.nearest({ sessionId: "s", model, vector, lowSeq: 0, highSeq: Number.MAX_SAFE_INTEGER, limit });
    expect(search(packer, alternating, 1)).toEqual([{ seq: 3_000, similarity: 1 }]); // caught up past the blocks

    const fresh = createSqliteVectorIndex({ path: file });
    const javascript = createSqliteVectorIndex({ path: file, useExtension: false, readOnly: true });
    expect(search(fresh, alternating, 1)).toEqual([{ seq: 3_000, similarity: 1 }]);
    const near = search(fresh, vectorWith(5), 20);
    expect(near.map((row) => row.seq % 64)).toEqual(Array.from({ length: 20 }, () => 5));
    expect(near.map((row) => row.similarity)).toEqual(
      search(javascript, vectorWith(5), 20).map((row) => row.similarity),
    );
    for (const index of [packer, fresh, javascript, writer]) index.close();
  });

  it("ignores and deletes blocks of an earlier incarnation left behind by a version without them", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-signs-")), "ctxwin.db");
    new Database(file).close();
    const first = createSqliteVectorIndex({ path: file });
    writeMany(first, "i1", 1_100);
    nearest(first, 5);
    first.close();
    expect(blocksOf(file)).toEqual([{ incarnation: "i1", count: 1_024 }]);
    // What a version without the blocks table does on a delete: the recreated session's vector ids start at 1 again.
    const older = new Database(file);
    for (const table of ["ctxwin_embeddings", "ctxwin_embedding_signs", "ctxwin_embedding_progress"])
      older.prepare(`DELETE FROM ${table} WHERE session_id = 's'`).run();
    older.close();
    const second = createSqliteVectorIndex({ path: file });
    second.write({
      sessionId: "s",
      incarnation: "i2",
      model,
      dimensions: 64,
      throughSeq: 2,
      vectors: [
        { seq: 1, chunk: 0, vector: vectorWith(5) },
        { seq: 2, chunk: 0, vector: alternating },
      ],
    });
    second.close();

    const reader = createSqliteVectorIndex({ path: file });
    expect(
      reader
        .nearest({ sessionId: "s", model, vector: alternating, lowSeq: 0, highSeq: Number.MAX_SAFE_INTEGER, limit: 5 })
        .map((row) => row.seq),
    ).toEqual([2, 1]);
    reader.close();
    expect(blocksOf(file)).toEqual([]);
  });

  it("answers without packing while another connection holds the write lock, and packs on a later load", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ctxwin-signs-")), "ctxwin.db");
    new Database(file).close();
    const writer = createSqliteVectorIndex({ path: file });
    writeMany(writer, "i1", 1_100);
    writer.close();
    const holder = new Database(file);
    holder.exec("BEGIN IMMEDIATE");
    const searcher = createSqliteVectorIndex({ path: file, busyTimeoutMs: 60_000 });
    expect(nearest(searcher, 5)[0]).toMatchObject({ similarity: 1 });
    searcher.close();
    holder.exec("ROLLBACK");
    holder.close();
    expect(blocksOf(file)).toBeUndefined();
    const later = createSqliteVectorIndex({ path: file });
    expect(nearest(later, 5)[0]).toMatchObject({ similarity: 1 });
    later.close();
    expect(blocksOf(file)).toEqual([{ incarnation: "i1", count: 1_024 }]);
  });
});
