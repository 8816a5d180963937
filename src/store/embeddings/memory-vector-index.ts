/**
 * The memory backend's vectors: per model, per session, scored in JavaScript.
 */
import { EmbeddingMismatchError } from "./embedding-errors.js";
import { memoryFailureLog } from "./failure-log.js";
import {
  bestRows,
  bestRowsAcross,
  cosineSimilarity,
  inSegments,
  type NearestAcrossRow,
  type NearestRow,
  type StoredVector,
  type SyncVectorIndex,
} from "./vector-index.js";

interface SessionVectors {
  incarnation: string;
  throughSeq: number;
  vectors: Map<string, StoredVector>;
}

/** @example const index = createMemoryVectorIndex() */
export function createMemoryVectorIndex(): SyncVectorIndex {
  const models = new Map<string, { dimensions: number; sessions: Map<string, SessionVectors> }>();
  return {
    kind: "memory",
    dimensionsOf: (model) => models.get(model)?.dimensions,
    progress(sessionId, model) {
      const session = models.get(model)?.sessions.get(sessionId);
      return session === undefined ? undefined : { incarnation: session.incarnation, throughSeq: session.throughSeq };
    },
    progressOfAll: (model) =>
      new Map(
        [...(models.get(model)?.sessions ?? [])].map(([sessionId, session]) => [
          sessionId,
          { incarnation: session.incarnation, throughSeq: session.throughSeq },
        ]),
      ),
    write({ sessionId, incarnation, model, dimensions, throughSeq, vectors }) {
      const known = models.get(model) ?? { dimensions, sessions: new Map<string, SessionVectors>() };
      if (known.dimensions !== dimensions) throw new EmbeddingMismatchError(model, known.dimensions, dimensions);
      for (const other of models.values()) {
        const stale = other.sessions.get(sessionId);
        if (stale !== undefined && stale.incarnation !== incarnation) other.sessions.delete(sessionId);
      }
      models.set(model, known);
      const session = known.sessions.get(sessionId) ?? { incarnation, throughSeq: 0, vectors: new Map() };
      for (const entry of vectors) {
        const key = `${entry.seq}:${entry.chunk}`;
        if (!session.vectors.has(key)) session.vectors.set(key, { ...entry, vector: Float32Array.from(entry.vector) });
      }
      session.throughSeq = Math.max(session.throughSeq, throughSeq);
      known.sessions.set(sessionId, session);
    },
    nearest({ sessionId, model, vector, lowSeq, highSeq, limit }) {
      const known = models.get(model);
      if (known !== undefined && known.dimensions !== vector.length)
        throw new EmbeddingMismatchError(model, known.dimensions, vector.length);
      const session = known?.sessions.get(sessionId);
      if (session === undefined) return [];
      const scored: NearestRow[] = [];
      for (const entry of session.vectors.values()) {
        if (entry.seq > lowSeq && entry.seq < highSeq)
          scored.push({ seq: entry.seq, similarity: cosineSimilarity(vector, entry.vector) });
      }
      return bestRows(scored, limit);
    },
    nearestAcross({ model, vector, segments, limit }) {
      const known = models.get(model);
      if (known !== undefined && known.dimensions !== vector.length)
        throw new EmbeddingMismatchError(model, known.dimensions, vector.length);
      const scored: NearestAcrossRow[] = [];
      for (const [sessionId, parts] of segments) {
        for (const entry of known?.sessions.get(sessionId)?.vectors.values() ?? []) {
          if (inSegments(parts, entry.seq))
            scored.push({ sessionId, seq: entry.seq, similarity: cosineSimilarity(vector, entry.vector) });
        }
      }
      return bestRowsAcross(scored, limit);
    },
    models: () => [...models.entries()].map(([model, { dimensions }]) => ({ model, dimensions })),
    count(model) {
      let rows = 0;
      let vectors = 0;
      for (const session of models.get(model)?.sessions.values() ?? []) {
        vectors += session.vectors.size;
        rows += new Set([...session.vectors.values()].map((entry) => entry.seq)).size;
      }
      return { rows, vectors };
    },
    deleteSession(sessionId) {
      for (const known of models.values()) known.sessions.delete(sessionId);
    },
    ...memoryFailureLog(),
    close() {
      models.clear();
    },
  };
}
