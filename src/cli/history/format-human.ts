/**
 * Human output of `ctxwin history`: compact lines, one per session, window, item or hit.
 */
import type { ItemEntry, SearchHitEntry, WindowEntry } from "../../tools/session-history/results.js";
import type { SessionHits } from "../../tools/session-catalog/catalog-results.js";
import type { ReadEntry, SessionEntry } from "./history-queries.js";

/** @example formatSessions([]) // "No sessions." */
export function formatSessions(sessions: readonly SessionEntry[]): string {
  if (sessions.length === 0) return "No sessions.";
  const known = new Set(sessions.map((session) => session.session_id));
  const childrenOf = new Map<string, SessionEntry[]>();
  for (const session of sessions) {
    const parent = session.parent_session_id;
    if (parent !== undefined && known.has(parent) && parent !== session.session_id)
      childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), session]);
  }
  const lines: string[] = [];
  const visit = (session: SessionEntry, depth: number, seen: Set<string>) => {
    if (seen.has(session.session_id)) return;
    seen.add(session.session_id);
    lines.push(`${depth === 0 ? "" : `${"  ".repeat(depth - 1)}└ `}${sessionLine(session)}`);
    for (const child of childrenOf.get(session.session_id) ?? []) visit(child, depth + 1, seen);
  };
  const seen = new Set<string>();
  for (const session of sessions) {
    const parent = session.parent_session_id;
    if (parent === undefined || !known.has(parent)) visit(session, 0, seen);
  }
  // A cycle of parents (only a hand-written store can hold one) is still listed.
  for (const session of sessions) visit(session, 0, seen);
  return lines.join("\n");
}

function sessionLine(session: SessionEntry): string {
  const floor = session.floor_item === "0" ? "" : `  reset at #${session.floor_item}`;
  const task =
    session.parent_item === undefined ? "" : `  (task at ${session.parent_session_id ?? "?"} #${session.parent_item})`;
  const fork = session.fork_of === undefined ? "" : `  (fork of ${session.fork_of} at #${session.fork_at_item ?? "?"})`;
  const title = session.title === null ? "" : `  “${session.title}”`;
  const times = `${session.started_at} – ${session.ended_at}`;
  const counts = `${plural(session.window_count, "window")}  last item #${session.last_item}`;
  return `${session.session_id}  ${times}  ${counts}${title}${floor}${task}${fork}`;
}

/** @example formatWindows([]) // "No windows." */
export function formatWindows(windows: readonly WindowEntry[]): string {
  if (windows.length === 0) return "No windows.";
  return windows
    .map((window) => {
      const reason = window.reason === undefined ? "" : ` (${window.reason})`;
      const active = window.active ? "  [active]" : "";
      const range =
        window.first_item === null ? "" : `  #${window.first_item}..#${window.last_item ?? window.first_item}`;
      const head = `${window.window_id}  ${window.kind}${reason}  ${plural(window.item_count, "item")}${range}${active}  ${window.started_at}`;
      return window.preview === null ? head : `${head}\n    ${window.preview}`;
    })
    .join("\n");
}

/** @example formatItems("w:0", []) // "── w:0 ──\n(no items)" */
export function formatItems(windowId: string, items: readonly ItemEntry[]): string {
  const lines = [`── ${windowId} ──`];
  if (items.length === 0) lines.push("(no items)");
  for (const item of items) lines.push(`#${item.item_id}  ${roleLabel(item)}  ${item.preview}`);
  return lines.join("\n");
}

/** @example formatHits([]) // "No matches." */
export function formatHits(hits: readonly SearchHitEntry[]): string {
  if (hits.length === 0) return "No matches.";
  let currentWindow: string | undefined;
  const lines: string[] = [];
  for (const hit of hits) {
    if (hit.window_id !== currentWindow) {
      currentWindow = hit.window_id;
      lines.push(`── ${hit.window_id} ──`);
    }
    lines.push(`#${hit.item_id}  ${roleLabel(hit)}  ${hit.snippet.replace(/\s+/g, " ").trim()}`);
  }
  return lines.join("\n");
}

/** @example formatSessionHits([]) // "No matches." */
export function formatSessionHits(results: readonly SessionHits[]): string {
  if (results.length === 0) return "No matches.";
  return results
    .map((session) => {
      const title = session.title === null ? "" : `  ${session.title}`;
      const more = session.more_hits_in_session ? "\n  (more in this session: search it by its id)" : "";
      return `═══ ${session.session_id}${title} ═══\n${formatHits(session.hits)}${more}`;
    })
    .join("\n");
}

/** @example formatRead(entry) // "#9 user · w:8 · 2026-…\n\nWhich services …" */
export function formatRead(entry: ReadEntry): string {
  return `#${entry.item_id} ${roleLabel(entry)} · ${entry.window_id} · ${entry.created_at}\n\n${entry.text}`;
}

function roleLabel(item: { role: string; type?: string }): string {
  return item.type === undefined ? item.role : `${item.role} (${item.type})`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
