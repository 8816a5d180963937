/**
 * BM25 relevance ranking for the memory backend (the SQLite backend uses FTS5's bm25()).
 * Documents with none of the query words are dropped; ties keep the newest first.
 */
const k1 = 1.2;
const b = 0.75;

export interface RankedDocument<T> {
  key: T;
  words: string[];
}

export function bm25Rank<T>(documents: RankedDocument<T>[], queryWords: string[], corpus: string[][]): T[] {
  const totalDocuments = Math.max(1, corpus.length);
  const averageLength = corpus.reduce((sum, words) => sum + words.length, 0) / totalDocuments || 1;
  const documentFrequency = new Map<string, number>();
  for (const word of queryWords) {
    documentFrequency.set(word, corpus.filter((words) => words.includes(word)).length);
  }
  const scored: { key: T; score: number; order: number }[] = [];
  documents.forEach((document, order) => {
    let score = 0;
    for (const word of queryWords) {
      const frequency = document.words.filter((candidate) => candidate === word).length;
      if (frequency === 0) continue;
      const containing = documentFrequency.get(word) ?? 0;
      const idf = Math.log(1 + (totalDocuments - containing + 0.5) / (containing + 0.5));
      score += (idf * frequency * (k1 + 1)) / (frequency + k1 * (1 - b + (b * document.words.length) / averageLength));
    }
    if (score > 0) scored.push({ key: document.key, score, order });
  });
  scored.sort((left, right) => right.score - left.score || right.order - left.order);
  return scored.map((entry) => entry.key);
}
