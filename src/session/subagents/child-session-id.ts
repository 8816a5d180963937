/**
 * The session id of a `task` call's child (ADR 0060, 0074): `<parent>/<agent>-<toolCallId>` while
 * no session has that id, else the call's item id goes in front of the call id
 * (`<parent>/<agent>-<itemId>-<toolCallId>`, then `<itemId>.2`, `.3`, … for calls of one step).
 * Providers repeat call ids (`call_0` on every call): a child another call created is never reused.
 */
import type { HistoryStore } from "../../store/port.js";

const MAX_SESSION_ID_CHARS = 200;
/** Calls of one step that share an agent and a call id; past this, the id is generated. */
const MAX_SAME_STEP_CALLS = 1_000;

export interface ChildSessionIdRequest {
  store: HistoryStore;
  parentSessionId: string;
  agent: string;
  toolCallId: string;
  /** The parent's item that holds the call. */
  itemId: string;
  /** Ids this parent's calls took that may not be stored yet (a child stores its session with its first row). */
  claimed: Set<string>;
  generateId: () => string;
}

/** @example const childId = await claimChildSessionId({ store, parentSessionId: "main", agent, toolCallId, itemId, claimed, generateId }); */
export async function claimChildSessionId(request: ChildSessionIdRequest): Promise<string> {
  for (const candidate of candidates(request)) {
    if (candidate.length > MAX_SESSION_ID_CHARS) break;
    if (request.claimed.has(candidate) || (await request.store.session(candidate)) !== undefined) continue;
    // Another call of this parent may have claimed it while the store answered.
    if (request.claimed.has(candidate)) continue;
    request.claimed.add(candidate);
    return candidate;
  }
  const generated = `${request.agent.slice(0, 40)}-${request.generateId()}`.slice(0, MAX_SESSION_ID_CHARS);
  request.claimed.add(generated);
  return generated;
}

function* candidates({ parentSessionId, agent, toolCallId, itemId }: ChildSessionIdRequest): Generator<string> {
  yield `${parentSessionId}/${agent}-${toolCallId}`;
  yield `${parentSessionId}/${agent}-${itemId}-${toolCallId}`;
  for (let position = 2; position <= MAX_SAME_STEP_CALLS; position += 1)
    yield `${parentSessionId}/${agent}-${itemId}.${position}-${toolCallId}`;
}
