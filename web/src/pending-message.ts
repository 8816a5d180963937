/**
 * A message to send once a session's page opens: "Edit" on an earlier message forks the session
 * and opens the fork, whose page sends the edited text through its own chat (ADR 0070). Held in
 * memory only; taking it removes it, so it is sent once.
 */
const pending = new Map<string, string>();

/** @example holdMessage("fork-1", "the edited question"); window.location.hash = sessionHref("fork-1"); */
export function holdMessage(sessionId: string, text: string): void {
  pending.set(sessionId, text);
}

/** @example const text = takeMessage(sessionId); if (text !== undefined) void chat.send(text); */
export function takeMessage(sessionId: string): string | undefined {
  const text = pending.get(sessionId);
  pending.delete(sessionId);
  return text;
}
