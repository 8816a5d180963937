/**
 * One entry per context window (number, how it began, its span and item count); choosing one loads
 * the transcript from that window's first row.
 */
import type { WindowView } from "../api/types";
import { formatTime, windowDescription } from "../format";

/** @example <WindowsPanel windows={windows} activeWindowId="w:120" onJump={(seq) => transcript.jumpTo(seq)} /> */
export function WindowsPanel({
  windows,
  activeWindowId,
  onJump,
}: {
  windows: WindowView[];
  activeWindowId: string | undefined;
  onJump: (seq: number) => void;
}) {
  if (windows.length === 0) return <p className="hint">No windows yet.</p>;
  return (
    <ol className="windows-list" aria-label="Context windows">
      {[...windows].reverse().map((window) => (
        <li key={window.windowId}>
          <button
            type="button"
            className="window-entry"
            onClick={() => onJump(window.firstSeq)}
            aria-current={window.windowId === activeWindowId ? "true" : undefined}
          >
            <span className="window-title">
              Window {window.number}
              {window.windowId === activeWindowId ? " · active" : ""}
            </span>
            <span className="window-detail">{windowDescription(window)}</span>
            <span className="window-detail">
              {window.items} {window.items === 1 ? "item" : "items"} · #{window.firstSeq}–#{window.lastSeq} ·{" "}
              {formatTime(window.startedAt)}
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}
