/**
 * The context timeline above the transcript: a plain SVG chart of the tokens each provider request
 * was sent with (and, below each dot, the part of it read from the provider's prompt cache), the
 * warn band, threshold and hard ceiling of each window, the marks (warnings, notes, flush steps,
 * rollovers, compactions, clears) and the windows as shaded spans. Hover or
 * focus shows an item's figures; a click or Enter jumps the transcript to its row. The arrow keys
 * move between items (one tab stop); the key below names every shape (timeline-legend.tsx). Plain
 * SVG, no charting library: ADR 0044.
 */
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { chartBox, shortTokens, type ChartBox } from "../../../src/core/chart/chart-scale.js";
import type { ApiClient } from "../api/client";
import type { TimelineOverviewBar, TimelineView } from "../api/timeline-types";
import {
  describeItem,
  describeWindows,
  scalesFor,
  shownWindows,
  timelineItems,
  type Scales,
  type TimelineItem,
} from "../timeline-layout";
import { downloadText, timelineCsv } from "../timeline-export";
import { useElementWidth } from "../use-element-width";
import { TimelineLegend } from "./timeline-legend";

export interface ContextTimelineProps {
  api: ApiClient;
  sessionId: string;
  /** Changes when the session's stored rows may have changed (session events): the chart reloads. */
  version: number;
  onJump: (seq: number) => void;
}

/** Which windows are read row by row: the server's default (the newest), or a range ending at a window. */
type Range = { windowId: string; count: number } | undefined;

/** @example <ContextTimeline api={api} sessionId="s1" version={version} onJump={jump} /> */
export function ContextTimeline({ api, sessionId, version, onJump }: ContextTimelineProps) {
  const [view, setView] = useState<TimelineView | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [range, setRange] = useState<Range>(undefined);
  const [activeKey, setActiveKey] = useState<string | undefined>(undefined);
  const { width, container } = useElementWidth();
  const itemElements = useRef(new Map<string, SVGGElement>());

  useEffect(() => setRange(undefined), [sessionId]);

  useEffect(() => {
    let current = true;
    api.timeline(sessionId, range).then(
      (loaded) => {
        if (!current) return;
        setView(loaded);
        setError(undefined);
      },
      (failure: unknown) => {
        if (current) setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
    return () => {
      current = false;
    };
  }, [api, sessionId, range, version]);

  const items = view === undefined ? [] : timelineItems(view);
  const activeItem = items.find((item) => item.key === activeKey);
  const focusKey = activeItem?.key ?? items.at(-1)?.key;

  const focusItem = useCallback((item: TimelineItem | undefined) => {
    if (item === undefined) return;
    setActiveKey(item.key);
    itemElements.current.get(item.key)?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    const index = items.findIndex((item) => item.key === focusKey);
    const moves: Record<string, number | undefined> = {
      ArrowRight: index + 1,
      ArrowDown: index + 1,
      ArrowLeft: index - 1,
      ArrowUp: index - 1,
      Home: 0,
      End: items.length - 1,
    };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      focusItem(items[Math.max(0, Math.min(items.length - 1, target))]);
      return;
    }
    if ((event.key === "Enter" || event.key === " ") && activeItem !== undefined) {
      event.preventDefault();
      onJump(activeItem.seq);
    }
  };

  const bars = view?.overview ?? [];
  const barIndex = (windowId: string | undefined) => bars.findIndex((bar) => bar.windowId === windowId);
  const earlier = bars[barIndex(view?.detailWindowIds[0]) - 1];
  const lastShown = barIndex(view?.detailWindowIds.at(-1));
  const later = lastShown < 0 ? undefined : bars[lastShown + 1];
  const box = chartBox(width);
  const scales = view === undefined ? undefined : scalesFor(view, box);

  return (
    <section className="timeline" aria-label="Context timeline of the session">
      <div className="timeline-toolbar">
        <h2 className="timeline-heading">Context timeline</h2>
        <div className="timeline-buttons">
          <button
            type="button"
            aria-label="Earlier window"
            title="Earlier window"
            disabled={earlier === undefined}
            onClick={() => earlier !== undefined && setRange({ windowId: earlier.windowId, count: 1 })}
          >
            ←
          </button>
          <button
            type="button"
            aria-label="Later window"
            title="Later window"
            disabled={later === undefined}
            onClick={() => later !== undefined && setRange({ windowId: later.windowId, count: 1 })}
          >
            →
          </button>
          <button
            type="button"
            aria-label="Export CSV"
            title="Export the timeline as CSV"
            disabled={view === undefined}
            onClick={() =>
              view !== undefined &&
              downloadText({ text: timelineCsv(view), fileName: `${sessionId}-timeline.csv`, type: "text/csv" })
            }
          >
            CSV
          </button>
          <button
            type="button"
            aria-label="Export JSON"
            title="Export the timeline as JSON"
            disabled={view === undefined}
            onClick={() =>
              view !== undefined &&
              downloadText({
                text: `${JSON.stringify(view, null, 2)}\n`,
                fileName: `${sessionId}-timeline.json`,
                type: "application/json",
              })
            }
          >
            JSON
          </button>
        </div>
      </div>
      {error === undefined ? null : (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="timeline-chart" ref={container}>
        {view === undefined || scales === undefined || width === 0 ? null : (
          <svg
            className="timeline-svg"
            width={box.width}
            height={box.height}
            viewBox={`0 0 ${box.width} ${box.height}`}
            role="group"
            aria-label="Context timeline"
            aria-describedby="timeline-figures"
            onKeyDown={onKeyDown}
          >
            <Axes view={view} box={box} scales={scales} />
            {items.map((item) => (
              <Item
                key={item.key}
                item={item}
                view={view}
                box={box}
                scales={scales}
                active={item.key === activeItem?.key}
                tabbable={item.key === focusKey}
                register={(element) => {
                  if (element === null) itemElements.current.delete(item.key);
                  else itemElements.current.set(item.key, element);
                }}
                onActivate={() => setActiveKey(item.key)}
                onOpen={() => onJump(item.seq)}
              />
            ))}
          </svg>
        )}
      </div>
      {view === undefined ? null : (
        <Overview view={view} onChoose={(window) => setRange({ windowId: window.windowId, count: 1 })} />
      )}
      <TimelineLegend />
      <p className="timeline-figures" id="timeline-figures" aria-live="polite" data-testid="timeline-figures">
        {view === undefined
          ? "Loading the timeline…"
          : activeItem === undefined
            ? describeWindows(view)
            : describeItem(activeItem, view)}
      </p>
    </section>
  );
}

/** Window spans, budget lines and the token axis. */
function Axes({ view, box, scales }: { view: TimelineView; box: ChartBox; scales: Scales }) {
  const bottom = box.height - box.bottom;
  return (
    <g aria-hidden="true">
      {shownWindows(view).map((window, index) => {
        const left = scales.x(window.firstSeq - 0.5);
        const right = scales.x(window.lastSeq + 0.5);
        const lines = window.lines;
        return (
          <g key={window.windowId} data-window={window.windowId}>
            <rect
              className={`timeline-span${index % 2 === 1 ? " timeline-span-alternate" : ""}`}
              x={left}
              y={box.top}
              width={Math.max(1, right - left)}
              height={bottom - box.top}
            />
            {lines === null || lines.warnAt === null || lines.threshold === null ? null : (
              <rect
                className="timeline-warn-band"
                x={left}
                y={scales.y(lines.threshold)}
                width={Math.max(1, right - left)}
                height={Math.max(0, scales.y(lines.warnAt) - scales.y(lines.threshold))}
              />
            )}
            {lines === null || lines.threshold === null ? null : (
              <line
                className="timeline-threshold"
                data-line="threshold"
                x1={left}
                x2={right}
                y1={scales.y(lines.threshold)}
                y2={scales.y(lines.threshold)}
              />
            )}
            {lines === null ? null : (
              <line
                className="timeline-ceiling"
                data-line="ceiling"
                x1={left}
                x2={right}
                y1={scales.y(lines.hardCeiling)}
                y2={scales.y(lines.hardCeiling)}
              />
            )}
            <text className="timeline-window-label" x={(left + right) / 2} y={box.height - 6} textAnchor="middle">
              {right - left > 28 ? `W${window.number}` : ""}
            </text>
          </g>
        );
      })}
      {scales.ticks.map((tick) => (
        <text key={tick} className="timeline-tick" x={box.left - 6} y={scales.y(tick) + 4} textAnchor="end">
          {shortTokens(tick)}
        </text>
      ))}
      <line className="timeline-axis" x1={box.left} x2={box.width - box.right} y1={bottom} y2={bottom} />
      <RequestLines view={view} scales={scales} />
    </g>
  );
}

/** A line through each window's requests, so the fill of a window reads as one shape. */
function RequestLines({ view, scales }: { view: TimelineView; scales: Scales }) {
  const byWindow = new Map<string, string[]>();
  for (const point of view.points) {
    const list = byWindow.get(point.windowId) ?? [];
    list.push(`${scales.x(point.seq).toFixed(1)},${scales.y(point.tokens).toFixed(1)}`);
    byWindow.set(point.windowId, list);
  }
  return (
    <>
      {[...byWindow].map(([windowId, coordinates]) => (
        <polyline key={windowId} className="timeline-request-line" points={coordinates.join(" ")} />
      ))}
    </>
  );
}

interface ItemProps {
  item: TimelineItem;
  view: TimelineView;
  box: ChartBox;
  scales: Scales;
  active: boolean;
  tabbable: boolean;
  register: (element: SVGGElement | null) => void;
  onActivate: () => void;
  onOpen: () => void;
}

/** One request (a dot) or mark (a line or a symbol on the top row), focusable and clickable. */
function Item({ item, view, box, scales, active, tabbable, register, onActivate, onOpen }: ItemProps) {
  const label = describeItem(item, view);
  const x = scales.x(item.seq);
  const common = {
    ref: register,
    role: "button",
    tabIndex: tabbable ? 0 : -1,
    "aria-label": label,
    "data-seq": item.seq,
    className: `timeline-item${active ? " timeline-item-active" : ""}`,
    onMouseEnter: onActivate,
    onFocus: onActivate,
    onClick: onOpen,
  };
  if (item.type === "point") {
    const y = scales.y(item.point.tokens);
    const cached = item.point.cacheReadTokens ?? 0;
    return (
      <g {...common} data-point={item.point.source}>
        <title>{label}</title>
        {/* The part of the request read from the provider's prompt cache, from the axis up. */}
        {cached > 0 ? (
          <line
            className="timeline-cached"
            x1={x}
            x2={x}
            y1={box.height - box.bottom}
            y2={scales.y(Math.min(cached, item.point.tokens))}
            data-cached={cached}
          />
        ) : null}
        <circle className="timeline-hit" cx={x} cy={y} r={9} />
        <circle className={`timeline-point timeline-point-${item.point.source}`} cx={x} cy={y} r={active ? 5 : 3.5} />
      </g>
    );
  }
  const kind = item.mark.kind;
  const top = box.top;
  const bottom = box.height - box.bottom;
  if (kind === "rollover" || kind === "compaction" || kind === "clear") {
    const left = x - scales.rowWidth / 2;
    return (
      <g {...common} data-mark={kind}>
        <title>{label}</title>
        <rect className="timeline-hit" x={left - 5} y={top - 14} width={10} height={bottom - top + 14} />
        <line className={`timeline-boundary timeline-boundary-${kind}`} x1={left} x2={left} y1={top - 10} y2={bottom} />
        <rect
          className={`timeline-boundary-flag timeline-boundary-${kind}`}
          x={left - 4}
          y={top - 14}
          width={8}
          height={8}
        />
      </g>
    );
  }
  const y = item.mark.tokens === null ? top - 8 : scales.y(item.mark.tokens);
  return (
    <g {...common} data-mark={kind}>
      <title>{label}</title>
      <rect className="timeline-hit" x={x - 8} y={top - 16} width={16} height={bottom - top + 16} />
      <line className={`timeline-mark-stem timeline-mark-${kind}`} x1={x} x2={x} y1={top - 6} y2={y} />
      {kind === "warning" ? (
        <path
          className="timeline-symbol timeline-mark-warning"
          d={`M ${x} ${top - 15} L ${x + 6} ${top - 4} L ${x - 6} ${top - 4} Z`}
        />
      ) : null}
      {kind === "notes" ? (
        <rect className="timeline-symbol timeline-mark-notes" x={x - 4.5} y={top - 14} width={9} height={9} />
      ) : null}
      {kind === "flush" ? (
        <path
          className="timeline-symbol timeline-mark-flush"
          d={`M ${x} ${top - 16} L ${x + 6} ${top - 9.5} L ${x} ${top - 3} L ${x - 6} ${top - 9.5} Z`}
        />
      ) : null}
    </g>
  );
}

/**
 * Every window of the session as a small bar (height: its peak, or the figure it rolled over at,
 * against its limit); the windows shown above are outlined. A click shows that window; the
 * Earlier / Later buttons do the same from the keyboard.
 */
function Overview({ view, onChoose }: { view: TimelineView; onChoose: (bar: TimelineOverviewBar) => void }) {
  const height = 26;
  const total = Math.max(1, view.overview.length);
  return (
    <svg
      className="timeline-overview"
      viewBox={`0 0 ${total * 10} ${height}`}
      preserveAspectRatio="none"
      aria-hidden="true"
    >
      {view.overview.map((window, index) => {
        const figure = window.tokens;
        const share = figure === null || window.limit === null ? 0.15 : Math.min(1, figure / window.limit);
        const barHeight = Math.max(2, share * (height - 4));
        return (
          <rect
            key={window.windowId}
            className={
              `timeline-overview-bar${view.detailWindowIds.includes(window.windowId) ? " timeline-overview-shown" : ""}` +
              ` timeline-overview-${window.kind}`
            }
            x={index * 10 + 1}
            y={height - barHeight}
            width={8}
            height={barHeight}
            onClick={() => onChoose(window)}
          >
            <title>{`Window ${window.number}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}
