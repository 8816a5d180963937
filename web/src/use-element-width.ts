/**
 * The width of a chart's container in whole pixels, kept current with a ResizeObserver: the frame
 * setup the context timeline and the Eval view's bar charts share (both draw plain SVG at the
 * container's width, ADR 0044). The width is 0 until the element is laid out.
 */
import { useLayoutEffect, useRef, useState, type RefObject } from "react";

/** @example const { width, container } = useElementWidth(); return <div ref={container}>{width}</div>; */
export function useElementWidth(): { width: number; container: RefObject<HTMLDivElement | null> } {
  const [width, setWidth] = useState(0);
  const container = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const element = container.current;
    if (element === null) return;
    const observer = new ResizeObserver(() => setWidth(Math.floor(element.clientWidth)));
    observer.observe(element);
    setWidth(Math.floor(element.clientWidth));
    return () => observer.disconnect();
  }, []);

  return { width, container };
}
