/** What the description adds when the store has an embedding model, and `mode: 'hybrid'` is offered (ADR 0063). */
export const HYBRID_SEARCH_DESCRIPTION =
  "mode 'hybrid' also finds items by meaning: use it for a question or topic in your own words when the transcript may have said it differently " +
  "(you ask about 'login', it said 'OAuth sign-in'), or when ranked finds nothing; use 'literal' for exact text.";
