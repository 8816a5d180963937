import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SessionSigns, SignCache, signBitsOf } from "./sign-cache.js";
import { createSqliteVectorIndex } from "./sqlite-vector-index.js";

/** A 64-dimension vector whose first `ones` dimensions are positive. */
const vectorWith = (ones: number, dimensions = 64) => Float32Array.from({ length: dimensions }, (_, index) => (index < ones ? 1 : -1));

describe("sign bits", () => {
  it("packs the sign of each dimension as sqlite-vec's vec_quantize_binary does", () => {
    expect([...signBitsOf(Float32Array.from([1, -1, 0, 2, ...Array.from({ length: 30 }, () => -1), 3]))]).toEqual([0b1001, 0b100]);
  });

  it("takes the k nearest by Hamming distance inside the seq bounds, the newer on a tie at the cut", () => {
    const signs = new SessionSigns(64);
    for (let seq = 1; seq <= 6; seq += 1) signs.add(seq * 10, seq, signBitsOf(vectorWith(seq <= 3 ? 64 : 0)));
    const query = signBitsOf(vectorWith(64));
    expect(signs.nearest(query, 0, Number.MAX_SAFE_INTEGER, 2)).toEqual([30, 20]);
    expect(signs.nearest(query, 1, 3, 5)).toEqual([20]);
    expect(signs.nearest(query, 0, Number.MAX_SAFE_INTEGER, 4)).toEqual([60, 30, 20, 10]);
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
  const write = (index: ReturnType<typeof createSqliteVectorIndex>, incarnation: string, seqs: number[], ones: number) =>
    index.write({ sessionId: "s", incarnation, model, dimensions: 64, throughSeq: Math.max(...seqs), vectors: seqs.map((seq) => ({ seq, chunk: 0, vector: vectorWith(ones) })) });
  const nearest = (index: ReturnType<typeof createSqliteVectorIndex>, ones: number) =>
    index.nearest({ sessionId: "s", model, vector: vectorWith(ones), lowSeq: 0, highSeq: Number.MAX_SAFE_INTEGER, limit: 1 });

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
});
