/** How much one cross-session search answers (search-sessions.ts; the tool's description states them). */

/** At most this many hits of one session per call; the entry says when the session has more. */
export const HITS_PER_SESSION = 3;
