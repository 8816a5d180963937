/** What the embedding conformance cases share: a transcript the synonym model places by meaning, and quiet embedder options. */
import { reply, text } from "./conformance-rows.js";

/** Embedder options for tests: retries without waiting, warnings kept out of the output. */
export const quiet = { retryDelaysMs: [0, 0], onWarning: () => undefined };

/** Six rows the synonym model places by meaning: identity (OAuth), storage (PostgreSQL), colour (palette). */
export const transcript = [
  text("Which identity approach should the app use?"),
  reply("We'll keep OAuth with PKCE for sign-in."),
  text("And where do the rows live?"),
  reply("Everything persists in PostgreSQL."),
  text("Pick the accent hue for the header."),
  reply("A deep teal palette."),
];
