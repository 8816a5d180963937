/**
 * A tool call collapsed to one line (`▸ read_file src/x.ts`); the button expands its input and
 * result. A call that threw says `failed`, one that never executed `not run`. A call that started
 * a sub-agent links to the child session's transcript. Everything is rendered as text.
 */
import { useId, useState } from "react";
import type { CallOutcome } from "../api/types";
import { toolCallSummary } from "../format";
import { sessionHref } from "../use-hash-route";

/** @example <ToolCall toolName="read_file" state="output-available" outcome="finished" input='{"path":"a"}' output="…" /> */
export function ToolCall({
  toolName,
  state,
  outcome,
  input,
  output,
  childSessionId,
}: {
  toolName: string;
  state: string;
  outcome: CallOutcome;
  input: string;
  output: string;
  childSessionId?: string | undefined;
}) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const failed = outcome !== "finished";
  return (
    <div className={`tool-call${failed ? " tool-call-failed" : ""}`}>
      <button
        type="button"
        className="tool-call-toggle"
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true" className="tool-call-arrow">
          {open ? "▾" : "▸"}
        </span>{" "}
        <span className="tool-name">{toolName}</span> <span className="tool-summary">{toolCallSummary(input)}</span>
        {failed ? <span className="tool-state"> · {outcome === "failed" ? "failed" : "not run"}</span> : null}
      </button>
      {childSessionId === undefined ? null : (
        <a className="child-session-link" href={sessionHref(childSessionId)}>
          Open the sub-agent's transcript →
        </a>
      )}
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
