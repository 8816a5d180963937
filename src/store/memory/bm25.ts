/**
 * BM25 relevance for the memory backend (the SQLite backend uses FTS5's bm25(), with the same
 * constants). Word weights come from `corpus`; a document with none of the words scores 0.
 */
const k1 = 1.2;
const b = 0.75;

export interface RankedDocument {
  words: string[];
}

/** Each document's BM25 score for `queryWords`, in the documents' order. */
export function bm25Scores(documents: readonly RankedDocument[], queryWords: readonly string[], corpus: readonly string[][]): number[] {
  const totalDocuments = Math.max(1, corpus.length);
  const averageLength = corpus.reduce((sum, words) => sum + words.length, 0) / totalDocuments || 1;
  const documentFrequency = new Map<string, number>();
  for (const word of queryWords) {
    documentFrequency.set(word, corpus.filter((words) => words.includes(word)).length);
  }
  return documents.map((document) => {
    let score = 0;
    for (const word of queryWords) {
      const frequency = document.words.filter((candidate) => candidate === word).length;
      if (frequency === 0) continue;
      const containing = documentFrequency.get(word) ?? 0;
      const idf = Math.log(1 + (totalDocuments - containing + 0.5) / (containing + 0.5));
      score += (idf * frequency * (k1 + 1)) / (frequency + k1 * (1 - b + (b * document.words.length) / averageLength));
    }
    return score;
  });
}
