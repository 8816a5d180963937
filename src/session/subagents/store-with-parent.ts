/**
 * The store as a child session writes to it: every append names the parent (unless it names one
 * itself), which the store records when the append creates the child's session (its first row).
 */
import type { HistoryStore, SessionParent } from "../../store/port.js";

/** @example createSessionEngine({ store: storeWithParent(store, { sessionId: "main", itemId: "12" }), sessionId: child, model }) */
export function storeWithParent(store: HistoryStore, parent: SessionParent): HistoryStore {
  // A parent the caller names wins: a grandchild's store wraps its parent's, which names the grandparent.
  return { ...store, append: (sessionId, rows, options = {}) => store.append(sessionId, rows, { parent, ...options }) };
}
