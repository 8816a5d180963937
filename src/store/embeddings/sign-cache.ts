/**
 * The candidate stage of SQLite vector search (ADR 0063, "Later"): each vector's sign bits (one
 * bit per dimension, 1/32 of the floats) held in memory per model and session, scanned by Hamming
 * distance in JavaScript. The signatures live in a compact table of their own (loaded once per
 * session, then kept in sync with writes); the memory is bounded by an LRU byte budget. The scan
 * runs in a small WebAssembly kernel (hamming-kernel.ts), in JavaScript where that is unavailable.
 * Kept over sqlite-vec's own binary-quantized KNN (`vec0` `bit[D]`, `vec_distance_hamming`), which
 * measured 2.4–8.4× slower in hybrid search p95 at 100,000 rows with the same recall (ADR 0099,
 * `npm run bench -- sqlite-vec`).
 */
import { createHammingKernel, type HammingKernel } from "./hamming-kernel.js";

/** The sign bits of `vector`, packed little-endian into 32-bit words (bit i set when dimension i > 0, as sqlite-vec's `vec_quantize_binary`). */
export function signBitsOf(vector: Float32Array): Uint32Array {
  const words = new Uint32Array(Math.ceil(vector.length / 32));
  for (let index = 0; index < vector.length; index += 1) {
    if ((vector[index] as number) > 0)
      words[index >>> 5] = ((words[index >>> 5] as number) | (1 << (index & 31))) >>> 0;
  }
  return words;
}

const popcount = (value: number): number => {
  let bits = value - ((value >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return (((bits + (bits >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
};

/** The JavaScript scan, where WebAssembly is unavailable: the kernel's distances, word by word. */
function scanInJavaScript(buffer: ArrayBuffer, bitsAt: number, rows: number, stride: number, outAt: number): void {
  const words = new Uint32Array(buffer);
  const out = new Int32Array(buffer, outAt, rows);
  const first = bitsAt >>> 2;
  for (let row = 0; row < rows; row += 1) {
    let distance = 0;
    const base = first + row * stride;
    for (let word = 0; word < stride; word += 1)
      distance += popcount(((words[base + word] as number) ^ (words[word] as number)) >>> 0);
    out[row] = distance;
  }
}

/**
 * The memory of one session's signatures: the query's row at byte 0, then `capacity` rows of
 * `stride` 32-bit words (the sign bits, zero-padded to whole 64-bit words for the kernel's
 * popcount), then one int32 distance per row (the scan's scratch).
 */
class SignMemory {
  readonly kernel: HammingKernel | undefined;
  readonly buffer: ArrayBuffer;

  constructor(
    readonly stride: number,
    readonly capacity: number,
    useKernel: boolean,
  ) {
    const bytes = SignMemory.bytesFor(stride, capacity);
    this.kernel = useKernel ? createHammingKernel(bytes) : undefined;
    this.buffer = this.kernel?.memory.buffer ?? new ArrayBuffer(bytes);
  }

  static bytesFor(stride: number, capacity: number): number {
    return (capacity + 1) * stride * 4 + capacity * 4;
  }

  get bitsAt(): number {
    return this.stride * 4;
  }

  /** Bits of every row, as 32-bit words. */
  words(): Uint32Array {
    return new Uint32Array(this.buffer, 0, (this.capacity + 1) * this.stride);
  }

  /** The distances of the first `rows` rows to the query row, as int32s (a view of the scratch). */
  scan(rows: number): Int32Array {
    const outAt = (this.capacity + 1) * this.stride * 4;
    if (this.kernel === undefined) scanInJavaScript(this.buffer, this.bitsAt, rows, this.stride, outAt);
    else this.kernel.hamming(this.bitsAt, 0, rows, this.stride >>> 1, outAt);
    return new Int32Array(this.buffer, outAt, rows);
  }
}

export interface SessionSignsOptions {
  /** Initial rows of room (grows by doubling). */
  capacity?: number;
  /** Scan with the WebAssembly popcount when the runtime has it (default `true`); `false` scans in JavaScript. */
  useKernel?: boolean;
}

/**
 * Of the rows counted by distance in `histogram`, the smallest distance `cut` such that at most `k`
 * rows are strictly nearer, and how many rows those are (`taken`): a nearest-`k` pick takes them
 * and fills the rest with rows at `cut`.
 *
 * @example const { cut, taken } = distanceCut(histogram, 400);
 */
export function distanceCut(histogram: Int32Array, k: number): { cut: number; taken: number } {
  let taken = 0;
  let cut = 0;
  while (cut < histogram.length && taken + (histogram[cut] as number) <= k) {
    taken += histogram[cut] as number;
    cut += 1;
  }
  return { cut, taken };
}

/** One session's signatures under one model: parallel growable arrays, the bits where the scan kernel reads them. */
export class SessionSigns {
  /** 32-bit words of sign bits per vector. */
  readonly words: number;
  count = 0;
  /** Highest vector id held (the table is read past it to catch up). */
  lastVectorId = 0;
  private readonly stride: number;
  private readonly useKernel: boolean;
  private ids: Float64Array;
  private seqs: Float64Array;
  private memory: SignMemory;
  private bits: Uint32Array;

  constructor(dimensions: number, { capacity = 1_024, useKernel = true }: SessionSignsOptions = {}) {
    this.words = Math.ceil(dimensions / 32);
    this.stride = Math.ceil(dimensions / 64) * 2;
    this.useKernel = useKernel;
    this.ids = new Float64Array(capacity);
    this.seqs = new Float64Array(capacity);
    this.memory = new SignMemory(this.stride, capacity, useKernel);
    this.bits = this.memory.words();
  }

  /** Bytes this session's arrays hold (capacity, not only the used part). */
  get bytes(): number {
    return this.ids.byteLength + this.seqs.byteLength + this.memory.buffer.byteLength;
  }

  /** Rows of room before the arrays grow. */
  get capacity(): number {
    return this.ids.length;
  }

  /** Whether the scan runs in WebAssembly (otherwise in JavaScript, with the same results). */
  get usesKernel(): boolean {
    return this.memory.kernel !== undefined;
  }

  add(vectorId: number, seq: number, bits: Uint32Array): void {
    const row = this.reserve(vectorId, seq);
    this.bits.set(bits.subarray(0, this.words), (row + 1) * this.stride);
  }

  /**
   * Adds `ids.length` rows at once: `bits` holds each row's `words` little-endian 32-bit words,
   * one row after another (as the signs table stores them).
   */
  addRows(ids: ArrayLike<number>, seqs: ArrayLike<number>, bits: Uint8Array): void {
    const rows = ids.length;
    const rowBytes = this.words * 4;
    if (bits.byteLength !== rows * rowBytes)
      throw new RangeError(`${rows} sign rows need ${rows * rowBytes} bytes, not ${bits.byteLength}.`);
    if (this.count + rows > this.ids.length) this.grow(this.count + rows);
    const bytes = new Uint8Array(this.memory.buffer);
    const first = this.count;
    if (rowBytes === this.stride * 4) bytes.set(bits, (first + 1) * rowBytes);
    else
      for (let row = 0; row < rows; row += 1)
        bytes.set(bits.subarray(row * rowBytes, (row + 1) * rowBytes), (first + row + 1) * this.stride * 4);
    for (let row = 0; row < rows; row += 1) {
      const id = ids[row] as number;
      this.ids[first + row] = id;
      this.seqs[first + row] = seqs[row] as number;
      if (id > this.lastVectorId) this.lastVectorId = id;
    }
    this.count += rows;
  }

  /** The held rows as the signs table's packed layout (ids, seqs, bits), for storing a block. */
  rows(from = 0, to = this.count): { ids: Float64Array; seqs: Float64Array; bits: Uint8Array } {
    const rowBytes = this.words * 4;
    const bits = new Uint8Array((to - from) * rowBytes);
    const source = new Uint8Array(this.memory.buffer);
    for (let row = from; row < to; row += 1) {
      const start = (row + 1) * this.stride * 4;
      bits.set(source.subarray(start, start + rowBytes), (row - from) * rowBytes);
    }
    return { ids: this.ids.slice(from, to), seqs: this.seqs.slice(from, to), bits };
  }

  /** Trims spare capacity (after a bulk load). */
  compact(): void {
    if (this.count === this.ids.length) return;
    this.resize(this.count);
  }

  /**
   * The vector ids of the (at most) `k` signatures nearest to `query` by Hamming distance among
   * those with `lowSeq < seq < highSeq`; on a tie at the cut, the newer vectors.
   */
  nearest(query: Uint32Array, lowSeq: number, highSeq: number, k: number): number[] {
    const { count, seqs, ids } = this;
    this.bits.fill(0, 0, this.stride);
    this.bits.set(query.subarray(0, this.words), 0);
    const distances = this.memory.scan(count);
    const histogram = new Int32Array(this.stride * 32 + 2);
    for (let row = 0; row < count; row += 1) {
      const seq = seqs[row] as number;
      if (seq <= lowSeq || seq >= highSeq) distances[row] = -1;
      else {
        const distance = distances[row] as number;
        histogram[distance] = (histogram[distance] as number) + 1;
      }
    }
    // Rows nearer than `cut` are taken; rows at `cut` fill the rest.
    const { cut, taken } = distanceCut(histogram, k);
    let atCut = k - taken;
    const found: number[] = [];
    for (let row = count - 1; row >= 0; row -= 1) {
      const distance = distances[row] as number;
      if (distance < 0) continue;
      if (distance < cut) found.push(ids[row] as number);
      else if (distance === cut && atCut > 0) {
        found.push(ids[row] as number);
        atCut -= 1;
      }
    }
    return found;
  }

  /**
   * The Hamming distance of every held row to `query` (a view of the scratch, valid until the next
   * scan of this session), with the rows' vector ids and seqs at the same positions: a search across
   * sessions picks its candidates from several sessions' scans (`sqlite-nearest-across.ts`).
   */
  distancesTo(query: Uint32Array): { distances: Int32Array; ids: Float64Array; seqs: Float64Array } {
    this.bits.fill(0, 0, this.stride);
    this.bits.set(query.subarray(0, this.words), 0);
    return { distances: this.memory.scan(this.count), ids: this.ids, seqs: this.seqs };
  }

  /** A row's slot (growing the arrays when full), with its id and seq set. */
  private reserve(vectorId: number, seq: number): number {
    if (this.count === this.ids.length) this.grow(this.count + 1);
    const row = this.count;
    this.ids[row] = vectorId;
    this.seqs[row] = seq;
    this.count += 1;
    if (vectorId > this.lastVectorId) this.lastVectorId = vectorId;
    return row;
  }

  private grow(needed: number): void {
    this.resize(Math.max(1_024, this.ids.length * 2, needed));
  }

  private resize(capacity: number): void {
    const ids = new Float64Array(capacity);
    ids.set(this.ids.subarray(0, this.count));
    const seqs = new Float64Array(capacity);
    seqs.set(this.seqs.subarray(0, this.count));
    const memory = new SignMemory(this.stride, capacity, this.useKernel);
    const bits = memory.words();
    bits.set(this.bits.subarray(this.stride, (this.count + 1) * this.stride), this.stride);
    [this.ids, this.seqs, this.memory, this.bits] = [ids, seqs, memory, bits];
  }
}

/** Signatures per `model key / session`, least recently used dropped first once over `maxBytes`. */
export class SignCache {
  private readonly sessions = new Map<string, SessionSigns>();

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    let total = 0;
    for (const signs of this.sessions.values()) total += signs.bytes;
    return total;
  }

  get(modelKey: number, sessionId: string): SessionSigns | undefined {
    const key = `${modelKey}/${sessionId}`;
    const signs = this.sessions.get(key);
    if (signs !== undefined) {
      this.sessions.delete(key);
      this.sessions.set(key, signs);
    }
    return signs;
  }

  /** Only peeks (no recency change): for writes that keep a loaded session in sync. */
  peek(modelKey: number, sessionId: string): SessionSigns | undefined {
    return this.sessions.get(`${modelKey}/${sessionId}`);
  }

  set(modelKey: number, sessionId: string, signs: SessionSigns): void {
    this.sessions.set(`${modelKey}/${sessionId}`, signs);
    this.evict();
  }

  evict(): void {
    let total = this.bytes;
    for (const [key, signs] of this.sessions) {
      if (total <= this.maxBytes || this.sessions.size === 1) break;
      this.sessions.delete(key);
      total -= signs.bytes;
    }
  }

  deleteSession(sessionId: string): void {
    for (const key of [...this.sessions.keys()])
      if (key.slice(key.indexOf("/") + 1) === sessionId) this.sessions.delete(key);
  }

  clear(): void {
    this.sessions.clear();
  }
}
