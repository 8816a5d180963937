/** Requests a chat test makes of a fixture's server: a new session, a raw body for the web chat's endpoint. */
import type { ServerFixture } from "./server-fixture.js";

/**
 * Creates a chat session through the API (`POST /api/sessions`) and returns its id.
 *
 * @example const sessionId = await createSession(fixture);
 */
export async function createSession(fixture: ServerFixture): Promise<string> {
  return (await fixture.api("/api/sessions", { method: "POST", body: {} })).body.sessionId;
}

/**
 * Posts a raw body to the web chat's endpoint (`POST /api/sessions/:id/chat`) and returns the response unread.
 *
 * @example const response = await postChatText(fixture, sessionId, JSON.stringify({ messages }));
 */
export function postChatText(fixture: ServerFixture, sessionId: string, body: string): Promise<Response> {
  return fetch(`${fixture.server.origin}/api/sessions/${encodeURIComponent(sessionId)}/chat`, {
    method: "POST",
    headers: { Authorization: `Bearer ${fixture.server.token}`, "Content-Type": "application/json" },
    body,
  });
}
