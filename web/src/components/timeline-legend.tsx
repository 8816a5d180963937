/**
 * The key of the context timeline: every shape the chart draws, drawn the same way (the same SVG
 * classes) beside its name. Open on a wide screen, folded on a phone.
 */
import { useState, type ReactNode } from "react";

interface LegendEntry {
  /** The shape's key: a request point's source (`point-…`), a mark's kind, a line's kind, or an area. */
  key: string;
  name: string;
  shape: ReactNode;
}

const W = 22;
const H = 16;

/** Every shape of the chart, in the order a reader meets them. */
export const LEGEND_ENTRIES: readonly LegendEntry[] = [
  {
    key: "point-reported",
    name: "Request, tokens reported by the provider",
    shape: <circle className="timeline-point timeline-point-reported" cx={W / 2} cy={H / 2} r={3.5} />,
  },
  {
    key: "point-estimated",
    name: "Request, tokens estimated",
    shape: <circle className="timeline-point timeline-point-estimated" cx={W / 2} cy={H / 2} r={3.5} />,
  },
  {
    key: "request-line",
    name: "Requests of one window",
    shape: <polyline className="timeline-request-line" points={`2,${H - 3} ${W / 2},${H / 2} ${W - 2},4`} />,
  },
  {
    key: "span",
    name: "Context window (shaded span)",
    shape: <rect className="timeline-span timeline-span-alternate" x={2} y={2} width={W - 4} height={H - 4} />,
  },
  {
    key: "warn-band",
    name: "Warning band",
    shape: <rect className="timeline-warn-band" x={2} y={4} width={W - 4} height={H - 8} />,
  },
  {
    key: "threshold",
    name: "Rollover threshold",
    shape: <line className="timeline-threshold" x1={1} x2={W - 1} y1={H / 2} y2={H / 2} />,
  },
  {
    key: "ceiling",
    name: "Hard ceiling",
    shape: <line className="timeline-ceiling" x1={1} x2={W - 1} y1={H / 2} y2={H / 2} />,
  },
  { key: "rollover", name: "Rollover", shape: <Boundary kind="rollover" /> },
  { key: "compaction", name: "Compaction", shape: <Boundary kind="compaction" /> },
  { key: "clear", name: "Clear", shape: <Boundary kind="clear" /> },
  {
    key: "warning",
    name: "Budget warning",
    shape: (
      <path
        className="timeline-symbol timeline-mark-warning"
        d={`M ${W / 2} 2 L ${W / 2 + 6} 13 L ${W / 2 - 6} 13 Z`}
      />
    ),
  },
  {
    key: "notes",
    name: "Notes written",
    shape: (
      <rect className="timeline-symbol timeline-mark-notes" x={W / 2 - 4.5} y={H / 2 - 4.5} width={9} height={9} />
    ),
  },
  {
    key: "flush",
    name: "Notes flush step",
    shape: (
      <path
        className="timeline-symbol timeline-mark-flush"
        d={`M ${W / 2} 1.5 L ${W / 2 + 6} 8 L ${W / 2} 14.5 L ${W / 2 - 6} 8 Z`}
      />
    ),
  },
];

function Boundary({ kind }: { kind: "rollover" | "compaction" | "clear" }) {
  return (
    <>
      <line className={`timeline-boundary timeline-boundary-${kind}`} x1={W / 2} x2={W / 2} y1={4} y2={H} />
      <rect className={`timeline-boundary-flag timeline-boundary-${kind}`} x={W / 2 - 4} y={0} width={8} height={8} />
    </>
  );
}

/** @example <TimelineLegend /> */
export function TimelineLegend() {
  const [open, setOpen] = useState(() => window.matchMedia("(min-width: 900px)").matches);
  return (
    <details className="timeline-legend" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Key</summary>
      <ul className="timeline-legend-entries">
        {LEGEND_ENTRIES.map((entry) => (
          <li key={entry.key} className="timeline-legend-entry" data-legend={entry.key}>
            <svg className="timeline-legend-shape" width={W} height={H} viewBox={`0 0 ${W} ${H}`} aria-hidden="true">
              {entry.shape}
            </svg>
            <span>{entry.name}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
