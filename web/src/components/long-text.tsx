/**
 * Text that may be very long (a pasted file, a 64 KB row): the first part is shown, the rest on
 * request, so one row cannot bury the transcript. Always rendered as text.
 */
import { useState } from "react";

export const SHOWN_CHARACTERS = 3_000;

/** @example <LongText text={row.text} className="text" /> */
export function LongText({
  text,
  className = "text",
  limit = SHOWN_CHARACTERS,
}: {
  text: string;
  className?: string;
  limit?: number;
}) {
  const [whole, setWhole] = useState(false);
  if (text.length <= limit || whole) return <div className={className}>{text}</div>;
  return (
    <div className={className}>
      {text.slice(0, limit)}…{" "}
      <button type="button" className="link-button" onClick={() => setWhole(true)}>
        Show all {text.length.toLocaleString("en-US")} characters
      </button>
    </div>
  );
}
