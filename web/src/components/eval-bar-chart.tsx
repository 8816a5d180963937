/**
 * One bar chart of the Eval view: a bar per strategy, drawn in plain SVG like the context timeline
 * (its box, axis, ticks and figures line). Hover or focus a bar to read its figures; the arrow keys
 * move between bars.
 */
import { useRef, useState, type KeyboardEvent } from "react";
import { barShapes, type StrategyChart } from "../../../src/core/chart/strategy-charts.js";
import { useElementWidth } from "../use-element-width";

/** @example <EvalBarChart chart={scoreChart(rows)} label="Score of needle" /> */
export function EvalBarChart({ chart, label }: { chart: StrategyChart; label: string }) {
  const { width, container } = useElementWidth();
  const [active, setActive] = useState<number | undefined>(undefined);
  const bars = useRef(new Map<number, SVGGElement>());

  const { box, y, shapes } = barShapes(chart, width);
  const bottom = box.height - box.bottom;
  const focusKey = active ?? 0;

  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    const moves: Record<string, number> = {
      ArrowRight: focusKey + 1,
      ArrowDown: focusKey + 1,
      ArrowLeft: focusKey - 1,
      ArrowUp: focusKey - 1,
      Home: 0,
      End: shapes.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const index = Math.max(0, Math.min(shapes.length - 1, target));
    setActive(index);
    bars.current.get(index)?.focus();
  };

  return (
    <figure className="eval-chart">
      <figcaption className="eval-chart-title">{chart.title}</figcaption>
      <div className="timeline-chart" ref={container}>
        {width === 0 ? null : (
          <svg
            className="timeline-svg"
            width={box.width}
            height={box.height}
            viewBox={`0 0 ${box.width} ${box.height}`}
            role="group"
            aria-label={label}
            onKeyDown={onKeyDown}
          >
            <g aria-hidden="true">
              {[0, chart.top / 2, chart.top].map((tick) => (
                <text key={tick} className="timeline-tick" x={box.left - 6} y={y(tick) + 4} textAnchor="end">
                  {chart.tick(tick)}
                </text>
              ))}
              <line className="timeline-axis" x1={box.left} x2={box.width - box.right} y1={bottom} y2={bottom} />
            </g>
            {shapes.map((shape, index) => {
              const bar = chart.bars[index]!;
              return (
                <g
                  key={shape.strategy}
                  ref={(element) => {
                    if (element === null) bars.current.delete(index);
                    else bars.current.set(index, element);
                  }}
                  className={`timeline-item eval-bar eval-strategy-${shape.strategy}${active === index ? " timeline-item-active" : ""}`}
                  role="img"
                  tabIndex={index === focusKey ? 0 : -1}
                  aria-label={bar.description}
                  data-strategy={shape.strategy}
                  onMouseEnter={() => setActive(index)}
                  onFocus={() => setActive(index)}
                >
                  <title>{bar.description}</title>
                  <rect
                    className="timeline-hit"
                    x={shape.x - 4}
                    y={box.top}
                    width={shape.width + 8}
                    height={bottom - box.top}
                  />
                  {shape.rects.map((rect, segment) => (
                    <rect
                      key={segment}
                      className={`eval-bar-segment${segment > 0 ? " eval-bar-segment-light" : ""}`}
                      x={shape.x}
                      y={rect.y}
                      width={shape.width}
                      height={rect.height}
                      data-segment={segment}
                    />
                  ))}
                  <text className="eval-bar-label" x={shape.x + shape.width / 2} y={shape.labelY} textAnchor="middle">
                    {bar.label}
                  </text>
                  <text className="timeline-tick" x={shape.x + shape.width / 2} y={box.height - 6} textAnchor="middle">
                    {shape.strategy}
                  </text>
                </g>
              );
            })}
          </svg>
        )}
      </div>
      <p className="timeline-figures eval-figures" aria-live="polite">
        {active === undefined ? "Hover or focus a bar for its figures." : chart.bars[active]?.description}
      </p>
    </figure>
  );
}
