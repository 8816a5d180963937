/**
 * Human output of `ctxwin history`: compact lines, one per session, window, item or hit.
 */
import type { ItemEntry, SearchHitEntry, WindowEntry } from "../../tools/session-history/results.js";
import type { ReadEntry, SessionEntry } from "./history-queries.js";

/** @example formatSessions([]) // "No sessions." */
export function formatSessions(sessions: readonly SessionEntry[]): string {
  if (sessions.length === 0) return "No sessions.";
  return sessions
    .map((session) => {
      const floor = session.floor_item === "0" ? "" : `  reset at #${session.floor_item}`;
      return `${session.session_id}  ${plural(session.window_count, "window")}  last item #${session.last_item}  updated ${session.updated_at}${floor}`;
    })
    .join("\n");
}

/** @example formatWindows([]) // "No windows." */
export function formatWindows(windows: readonly WindowEntry[]): string {
  if (windows.length === 0) return "No windows.";
  return windows
    .map((window) => {
      const reason = window.reason === undefined ? "" : ` (${window.reason})`;
      const active = window.active ? "  [active]" : "";
      const range = window.first_item === null ? "" : `  #${window.first_item}..#${window.last_item ?? window.first_item}`;
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
