/**
 * The candidate stage of SQLite vector search (ADR 0063, "Later"): each vector's sign bits (one
 * bit per dimension, 1/32 of the floats) held in memory per model and session, scanned by Hamming
 * distance in JavaScript. The signatures live in a compact table of their own (loaded once per
 * session, then kept in sync with writes); the memory is bounded by an LRU byte budget.
 */

/** The sign bits of `vector`, packed little-endian into 32-bit words (bit i set when dimension i > 0, as sqlite-vec's `vec_quantize_binary`). */
export function signBitsOf(vector: Float32Array): Uint32Array {
  const words = new Uint32Array(Math.ceil(vector.length / 32));
  for (let index = 0; index < vector.length; index += 1) {
    if ((vector[index] as number) > 0) words[index >>> 5] = ((words[index >>> 5] as number) | (1 << (index & 31))) >>> 0;
  }
  return words;
}

const popcount = (value: number): number => {
  let bits = value - ((value >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return (((bits + (bits >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
};

/** One session's signatures under one model: parallel growable arrays. */
export class SessionSigns {
  readonly words: number;
  count = 0;
  /** Highest vector id held (the table is read past it to catch up). */
  lastVectorId = 0;
  private ids: Float64Array;
  private seqs: Float64Array;
  private bits: Uint32Array;

  constructor(dimensions: number, capacity = 1_024) {
    this.words = Math.ceil(dimensions / 32);
    this.ids = new Float64Array(capacity);
    this.seqs = new Float64Array(capacity);
    this.bits = new Uint32Array(capacity * this.words);
  }

  /** Bytes this session's arrays hold (capacity, not only the used part). */
  get bytes(): number {
    return this.ids.byteLength + this.seqs.byteLength + this.bits.byteLength;
  }

  add(vectorId: number, seq: number, bits: Uint32Array): void {
    if (this.count === this.ids.length) this.grow();
    this.ids[this.count] = vectorId;
    this.seqs[this.count] = seq;
    this.bits.set(bits.subarray(0, this.words), this.count * this.words);
    this.count += 1;
    if (vectorId > this.lastVectorId) this.lastVectorId = vectorId;
  }

  /** Trims spare capacity (after a bulk load). */
  compact(): void {
    this.ids = this.ids.slice(0, this.count);
    this.seqs = this.seqs.slice(0, this.count);
    this.bits = this.bits.slice(0, this.count * this.words);
  }

  /**
   * The vector ids of the (at most) `k` signatures nearest to `query` by Hamming distance among
   * those with `lowSeq < seq < highSeq`; on a tie at the cut, the newer vectors.
   */
  nearest(query: Uint32Array, lowSeq: number, highSeq: number, k: number): number[] {
    const { words, count, bits, seqs, ids } = this;
    const distances = new Int32Array(count);
    const histogram = new Int32Array(words * 32 + 2);
    for (let row = 0; row < count; row += 1) {
      const seq = seqs[row] as number;
      if (seq <= lowSeq || seq >= highSeq) {
        distances[row] = -1;
        continue;
      }
      let distance = 0;
      const base = row * words;
      for (let word = 0; word < words; word += 1) distance += popcount(((bits[base + word] as number) ^ (query[word] as number)) >>> 0);
      distances[row] = distance;
      histogram[distance] = (histogram[distance] as number) + 1;
    }
    // The smallest distance `cut` such that at most k rows are strictly nearer; rows at `cut` fill the rest.
    let taken = 0;
    let cut = 0;
    while (cut < histogram.length && taken + (histogram[cut] as number) <= k) {
      taken += histogram[cut] as number;
      cut += 1;
    }
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

  private grow(): void {
    const capacity = Math.max(1_024, this.ids.length * 2);
    const ids = new Float64Array(capacity);
    ids.set(this.ids);
    const seqs = new Float64Array(capacity);
    seqs.set(this.seqs);
    const bits = new Uint32Array(capacity * this.words);
    bits.set(this.bits);
    [this.ids, this.seqs, this.bits] = [ids, seqs, bits];
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
    for (const key of [...this.sessions.keys()]) if (key.slice(key.indexOf("/") + 1) === sessionId) this.sessions.delete(key);
  }

  clear(): void {
    this.sessions.clear();
  }
}
