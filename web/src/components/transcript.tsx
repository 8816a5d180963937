/**
 * The transcript column: rows oldest to newest with the newest at the bottom, earlier rows loaded
 * when scrolling up (or with the button), and the reply being streamed shown live below the rows:
 * this page's chat answer (`live`), or the text another page's turn streams (`streamingText`).
 */
import { useEffect, useLayoutEffect, useRef, type ReactNode } from "react";
import type { RowView } from "../api/types";
import type { Transcript as TranscriptModel } from "../use-transcript";
import { TranscriptRow } from "./transcript-row";

const NEAR_EDGE_PIXELS = 160;

export interface TranscriptProps {
  transcript: TranscriptModel;
  streamingText: string;
  /** This page's answer in progress, below the rows. */
  live?: ReactNode;
  /** Changes whenever `live` grows, so the view follows it. */
  liveSize?: number;
  highlightSeq: number | undefined;
  /** "Show internal rows": without it, no hidden or internal row is drawn, even one a page still holds. */
  showInternal?: boolean;
  onEdit: ((text: string) => void) | undefined;
  /** "Edit" on a user message: send the edited text in a fork made just before it. */
  onEditMessage?: ((row: RowView, text: string) => Promise<string | undefined>) | undefined;
}

/** @example <Transcript transcript={transcript} streamingText="" highlightSeq={undefined} onEdit={undefined} /> */
export function Transcript({
  transcript,
  streamingText,
  live,
  liveSize = 0,
  highlightSeq,
  showInternal = false,
  onEdit,
  onEditMessage,
}: TranscriptProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const lastMeasure = useRef({ scrollHeight: 0, scrollTop: 0, following: true });

  /**
   * `scrolled`: a scroll event. One that did not move up keeps the view following the newest rows:
   * the box shrank under it (the timeline or the budget bar appeared above) or the page pinned it
   * to the bottom. Only scrolling up leaves the bottom.
   */
  const measure = ({ scrolled = false }: { scrolled?: boolean } = {}) => {
    const element = scroller.current;
    if (element === null) return;
    const before = lastMeasure.current;
    const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_EDGE_PIXELS;
    lastMeasure.current = {
      scrollHeight: element.scrollHeight,
      scrollTop: element.scrollTop,
      following: atBottom || (scrolled && before.following && element.scrollTop >= before.scrollTop),
    };
  };

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element === null) return;
    const intent = transcript.intent;
    const before = lastMeasure.current;
    if (intent.type === "bottom" || (intent.type === "bottom-if-following" && before.following))
      element.scrollTop = element.scrollHeight;
    else if (intent.type === "keep-position")
      element.scrollTop = element.scrollHeight - (before.scrollHeight - before.scrollTop);
    else if (intent.type === "seq") {
      const target = transcript.rows.find((row) => row.seq >= intent.seq);
      const node = target === undefined ? null : element.querySelector<HTMLElement>(`[data-seq="${target.seq}"]`);
      if (node !== null) element.scrollTop = node.offsetTop - 8; // .transcript is the offset parent (position: relative)
    }
    measure();
    // Only a new revision carries a new intent.
  }, [transcript.revision]);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element !== null && (streamingText !== "" || liveSize > 0) && lastMeasure.current.following)
      element.scrollTop = element.scrollHeight;
    measure();
  }, [streamingText, liveSize]);

  useEffect(() => {
    const element = scroller.current;
    if (element === null) return;
    const observer = new ResizeObserver(() => {
      if (lastMeasure.current.following) element.scrollTop = element.scrollHeight;
      measure();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    measure({ scrolled: true });
    const element = scroller.current;
    if (element === null || transcript.loading) return;
    if (element.scrollTop < NEAR_EDGE_PIXELS && transcript.hasMoreBefore) void transcript.loadOlder();
  };

  return (
    <div className="transcript" ref={scroller} onScroll={onScroll} tabIndex={0} role="region" aria-label="Transcript">
      {transcript.hasMoreBefore ? (
        <button
          type="button"
          className="secondary page-button"
          disabled={transcript.loading}
          onClick={() => void transcript.loadOlder()}
        >
          Load earlier rows
        </button>
      ) : transcript.rows.length > 0 ? (
        <p className="hint transcript-start">Start of the session</p>
      ) : null}
      {transcript.error === undefined ? null : (
        <p className="error" role="alert">
          {transcript.error}
        </p>
      )}
      {transcript.rows.length === 0 && !transcript.loading && transcript.error === undefined ? (
        <p className="hint">No rows yet.</p>
      ) : null}
      <ol className="rows">
        {transcript.rows
          .filter((row) => showInternal || !isInternal(row))
          .map((row) => (
            <li key={row.seq}>
              <TranscriptRow
                row={row}
                highlighted={row.seq === highlightSeq}
                onEdit={onEdit}
                onEditMessage={onEditMessage}
              />
            </li>
          ))}
      </ol>
      {transcript.hasMoreAfter ? (
        <div className="page-buttons">
          <button
            type="button"
            className="secondary page-button"
            disabled={transcript.loading}
            onClick={() => void transcript.loadNewer()}
          >
            Load later rows
          </button>
          <button type="button" className="secondary page-button" onClick={() => void transcript.loadLatest()}>
            Jump to the latest
          </button>
        </div>
      ) : null}
      {live}
      {streamingText === "" ? null : (
        <article
          className="row row-message role-assistant row-streaming"
          aria-live="polite"
          aria-label="Reply in progress"
        >
          <header className="row-header">
            <span className="row-role">assistant</span>
            <span className="row-tag">writing…</span>
          </header>
          <div className="text">{streamingText}</div>
        </article>
      )}
    </div>
  );
}

/** A row drawn only with "Show internal rows": hidden rows (lead-ins, `continue`) and internal ones (imported routine lines). */
function isInternal(row: RowView): boolean {
  return row.hidden || row.kind === "internal";
}
