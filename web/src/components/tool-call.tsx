/**
 * A tool call collapsed to one line (`▸ read_file src/x.ts`); the button expands its input and
 * result. Everything is rendered as text.
 */
import { useId, useState } from "react";
import { toolCallSummary } from "../format";

/** @example <ToolCall toolName="read_file" state="output-available" input='{"path":"a"}' output="…" /> */
export function ToolCall({ toolName, state, input, output }: { toolName: string; state: string; input: string; output: string }) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const failed = state.includes("error") || state.includes("denied");
  return (
    <div className={`tool-call${failed ? " tool-call-failed" : ""}`}>
      <button type="button" className="tool-call-toggle" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen(!open)}>
        <span aria-hidden="true" className="tool-call-arrow">{open ? "▾" : "▸"}</span> <span className="tool-name">{toolName}</span>{" "}
        <span className="tool-summary">{toolCallSummary(input)}</span>
        {failed ? <span className="tool-state"> · {state}</span> : null}
      </button>
      {open ? (
        <div id={detailsId} className="tool-call-details">
          <div className="block-label">Input</div>
          <pre className="block">{input}</pre>
          <div className="block-label">Result{state === "output-available" || state === "" ? "" : ` (${state})`}</div>
          <pre className="block tool-output">{output === "" ? "(no result yet)" : output}</pre>
        </div>
      ) : null}
    </div>
  );
}
