/**
 * A client's copy of the conversation, checked against the store before a call writes anything:
 * ctxwin never sends the client's copy to the model, so a copy that differs (an edited message, an
 * invented exchange, a result for a tool call that never happened) would silently not count; it is
 * refused instead. The check is bounded: the last `MAX_COMPARED_USER_MESSAGES` user messages and
 * the tool calls after the first of them, against at most `MAX_ROWS_READ` stored rows.
 */
import type { ModelMessage } from "ai";
import { isHidden } from "../../core/visibility.js";
import type { HistoryStore, StoredRow } from "../../store/port.js";
import { AgentInputError } from "./agent-input.js";

export const MAX_COMPARED_USER_MESSAGES = 20;
const MAX_ROWS_READ = 5_000;
const PAGE = 500;

/**
 * @example await checkClientHistory({ store, sessionId, earlier }); // throws AgentInputError on a mismatch
 */
export async function checkClientHistory({
  store,
  sessionId,
  earlier,
}: {
  store: HistoryStore;
  sessionId: string;
  earlier: readonly ModelMessage[];
}): Promise<void> {
  const userIndexes = earlier.flatMap((message, index) => (message.role === "user" ? [index] : []));
  const compared = userIndexes.slice(-MAX_COMPARED_USER_MESSAGES);
  const region = earlier.slice(compared[0] ?? earlier.length);
  const clientTexts = compared.map((index) => textOfMessage(earlier[index]!));
  const clientCalls = new Set(region.flatMap(toolCallIdsOf));
  if (clientTexts.length === 0 && clientCalls.size === 0) return;

  const storedTexts: string[] = [];
  const storedCalls = new Set<string>();
  let read = 0;
  for (
    let beforeSeq = (await store.lastSeq(sessionId)) + 1;
    beforeSeq > 1 && read < MAX_ROWS_READ && storedTexts.length < clientTexts.length;
  ) {
    const page = await store.items(sessionId, { beforeSeq, limit: PAGE, includeCleared: true });
    if (page.rows.length === 0) break;
    for (const row of [...page.rows].reverse()) {
      if (isUserInput(row)) storedTexts.unshift(textOfParts(row.parts));
      for (const id of rowToolCallIds(row)) storedCalls.add(id);
    }
    read += page.rows.length + page.skipped;
    beforeSeq = page.rows[0]!.seq;
  }
  const count = Math.min(storedTexts.length, clientTexts.length);
  const theirs = clientTexts.slice(clientTexts.length - count);
  const ours = storedTexts.slice(storedTexts.length - count);
  const differs = theirs.findIndex((text, index) => text !== ours[index]);
  // Fewer user messages stored than the client shows, with the whole session read: invented ones.
  const more = storedTexts.length < clientTexts.length && read < MAX_ROWS_READ;
  if (differs !== -1 || more) {
    const position =
      differs === -1
        ? "it holds more user messages than the session"
        : `user message ${compared.length - count + differs + 1} of the last ${compared.length} differs`;
    throw new AgentInputError(
      "The messages before the new one do not match this session's stored conversation " +
        `(${position}). ctxwin builds every request from its store, never from the client's copy; ` +
        "send the conversation as it was, or only the new message.",
    );
  }
  const unknown = [...clientCalls].filter((id) => !storedCalls.has(id));
  if (unknown.length > 0 && read < MAX_ROWS_READ) {
    throw new AgentInputError(
      `The messages hold tool calls or results this session never had (${unknown.slice(0, 3).join(", ")}${unknown.length > 3 ? ", …" : ""}).`,
    );
  }
}

/** A row that holds what a person sent: a user row that is not ctxwin's own, or an input that was refused. */
function isUserInput(row: StoredRow): boolean {
  if (row.role !== "user") return false;
  if (row.meta?.type === "rejected-input") return true;
  if (row.synthetic === true || isHidden(row)) return false;
  const metadata = row.metadata as { retryOfSeq?: unknown } | undefined;
  return metadata?.retryOfSeq === undefined;
}

function textOfMessage(message: ModelMessage): string {
  return typeof message.content === "string"
    ? message.content
    : textOfParts(message.content as Array<{ type: string }>);
}

function textOfParts(parts: ReadonlyArray<{ type: string }>): string {
  return parts
    .filter((part): part is { type: "text"; text: string } => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}

function toolCallIdsOf(message: ModelMessage): string[] {
  if (typeof message.content === "string") return [];
  return (message.content as Array<{ type: string; toolCallId?: string }>).flatMap((part) =>
    (part.type === "tool-call" || part.type === "tool-result") && typeof part.toolCallId === "string"
      ? [part.toolCallId]
      : [],
  );
}

function rowToolCallIds(row: StoredRow): string[] {
  return row.parts.flatMap((part) => {
    const id = (part as { toolCallId?: unknown }).toolCallId;
    return typeof id === "string" ? [id] : [];
  });
}
