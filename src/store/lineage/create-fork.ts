/**
 * `store.fork`: checks the request, works out the fork's counters and its first window as they
 * were at `atSeq`, and has the backend write one session record (ADR 0059). No row is copied:
 * the cost follows the windows after `atSeq` and the shorter side of the window holding it.
 */
import { InvalidArgumentError } from "../../core/errors.js";
import { assertSessionId } from "../../core/row.js";
import { isHistoryVisible } from "../../core/visibility.js";
import { windowIdFor } from "../../core/windows.js";
import { MAX_PAGE_LIMIT } from "../options.js";
import type { ForkOptions, HistoryStore, SessionSummary, WindowSummary } from "../port.js";
import type { LineageBackend } from "./lineage-backend.js";
import { ForkRefusedError } from "./lineage-errors.js";
import { isVisibleSession } from "./session-visibility.js";

export async function createFork(
  raw: LineageBackend,
  composed: HistoryStore,
  sessionId: string,
  options: ForkOptions,
): Promise<SessionSummary> {
  assertSessionId(sessionId);
  if (options === null || typeof options !== "object")
    throw new InvalidArgumentError("fork needs { atSeq, newSessionId }.");
  const { atSeq, newSessionId } = options;
  assertSessionId(newSessionId);
  if (typeof atSeq !== "number" || !Number.isSafeInteger(atSeq) || atSeq < 1)
    throw new InvalidArgumentError(`atSeq must be a positive integer; got ${String(atSeq)}.`);
  const origin = await raw.session(sessionId);
  if (origin === undefined)
    throw new ForkRefusedError("unknown-session", `Cannot fork '${sessionId}': no such session.`);
  if (!(await isVisibleSession({ store: composed, summary: origin }))) {
    // Every row of a child a clear above it hides lies behind the floor (ADR 0073).
    const message = `Cannot fork '${sessionId}': it started at or before a manual clear of a session above it.`;
    throw new ForkRefusedError("behind-floor", message);
  }
  if (atSeq > origin.lastSeq)
    throw new ForkRefusedError(
      "unknown-seq",
      `Cannot fork '${sessionId}' at item ${atSeq}: its last item is ${origin.lastSeq}.`,
    );
  if (atSeq <= origin.floorSeq) {
    throw new ForkRefusedError(
      "behind-floor",
      `Cannot fork '${sessionId}' at item ${atSeq}: it lies at or behind the privacy floor (a manual clear at item ${origin.floorSeq}).`,
    );
  }
  if ((await raw.session(newSessionId)) !== undefined) throw sessionExists(newSessionId);
  const holding = (
    await composed.windows(sessionId, { beforeWindow: windowIdFor(atSeq + 1), limit: 1, includeCleared: true })
  ).windows[0];
  if (holding === undefined)
    throw new ForkRefusedError("unknown-seq", `Cannot fork '${sessionId}' at item ${atSeq}: no window holds it.`);
  await raw.createFork({
    sessionId: newSessionId,
    forkOf: { sessionId, atSeq },
    cursor: { lastSeq: atSeq, activeWindowSeq: holding.boundarySeq, floorSeq: origin.floorSeq },
    window: await cutWindow(composed, sessionId, holding, atSeq),
    inheritedWindowCount: origin.windowCount - (await windowsFrom(composed, sessionId, holding.boundarySeq)),
  });
  const created = await raw.session(newSessionId);
  if (created === undefined) throw sessionExists(newSessionId);
  return created;
}

export function sessionExists(sessionId: string): ForkRefusedError {
  return new ForkRefusedError(
    "session-exists",
    `Cannot fork into '${sessionId}': a session with that id exists. Pick another id.`,
  );
}

/** The window holding `atSeq` as it was then: its rows up to `atSeq`, counted from the shorter side. */
async function cutWindow(
  store: HistoryStore,
  sessionId: string,
  window: WindowSummary,
  atSeq: number,
): Promise<WindowSummary> {
  const last = await store.read(sessionId, atSeq, { includeCleared: true });
  const rowCount = atSeq - window.firstSeq + 1;
  if (atSeq === window.lastSeq) return { ...window, active: true };
  const before = rowCount <= window.lastSeq - atSeq;
  const counted = before
    ? await visibleRows(store, sessionId, window.firstSeq - 1, atSeq + 1)
    : await visibleRows(store, sessionId, atSeq, window.lastSeq + 1);
  return {
    ...window,
    lastSeq: atSeq,
    rowCount,
    visibleCount: before ? counted : window.visibleCount - counted,
    endedAt: last?.createdAt ?? window.endedAt,
    active: true,
  };
}

async function visibleRows(
  store: HistoryStore,
  sessionId: string,
  afterSeq: number,
  beforeSeq: number,
): Promise<number> {
  let visible = 0;
  for (let after = afterSeq; after < beforeSeq - 1;) {
    const page = await store.items(sessionId, {
      afterSeq: after,
      beforeSeq,
      includeCleared: true,
      limit: MAX_PAGE_LIMIT,
    });
    visible += page.rows.filter((row) => isHistoryVisible(row)).length;
    const lastRow = page.rows.at(-1);
    if (!page.hasMore || lastRow === undefined) break;
    after = lastRow.seq;
  }
  return visible;
}

/** How many of the session's windows open at or after `boundarySeq`: newest first, in pages that grow, stopping below it. */
async function windowsFrom(store: HistoryStore, sessionId: string, boundarySeq: number): Promise<number> {
  let count = 0;
  let beforeWindow: string | undefined;
  for (let limit = 8; ; limit = Math.min(limit * 4, MAX_PAGE_LIMIT)) {
    const page = await store.windows(sessionId, {
      includeCleared: true,
      limit,
      ...(beforeWindow === undefined ? {} : { beforeWindow }),
    });
    const from = page.windows.filter((window) => window.boundarySeq >= boundarySeq);
    count += from.length;
    const oldest = page.windows.at(-1);
    if (!page.hasMore || oldest === undefined || from.length < page.windows.length) return count;
    beforeWindow = oldest.windowId;
  }
}
