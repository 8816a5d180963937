/**
 * One transcript row: a message with its parts, a window divider, a collapsed budget warning, an
 * internal row, or input that was not sent (offered for editing, never for a retry as-is).
 */
import { useId, useState } from "react";
import type { RowBoundary, RowCarry, RowPart, RowRejected, RowView } from "../api/types";
import { dividerLabel, formatCount, formatTime } from "../format";
import { LongText } from "./long-text";
import { ToolCall } from "./tool-call";

export interface TranscriptRowProps {
  row: RowView;
  highlighted: boolean;
  /** Puts a rejected input's text into the chat box; undefined when chatting is not available. */
  onEdit: ((text: string) => void) | undefined;
  /**
   * Sends an edited version of a user message in a fork made just before it (ADR 0070); resolves
   * with the error's text when that failed. Undefined when chatting is not available.
   */
  onEditMessage?: ((row: RowView, text: string) => Promise<string | undefined>) | undefined;
}

/** @example <TranscriptRow row={row} highlighted={false} onEdit={undefined} /> */
export function TranscriptRow({ row, highlighted, onEdit, onEditMessage }: TranscriptRowProps) {
  const className = `row row-${row.kind} role-${row.role}${row.hidden ? " row-hidden" : ""}${highlighted ? " row-highlighted" : ""}`;
  const common = { className, "data-seq": row.seq, "data-window": row.windowNumber, id: `row-${row.seq}` };
  if (row.kind === "boundary" && row.boundary !== undefined)
    return <Divider row={row} boundary={row.boundary} common={common} />;
  if (row.kind === "warning")
    return <Collapsed common={common} label="Budget warning — the agent was asked to write its notes now" row={row} />;
  if (row.kind === "notes-flush")
    return (
      <Collapsed common={common} label="Notes flush — one memory-only step before the window rolls over" row={row} />
    );
  if (row.carry !== undefined) return <Continuation common={common} carry={row.carry} row={row} />;
  if (row.kind === "internal" || row.hidden)
    return <Collapsed common={common} label={`Internal row${row.role === "" ? "" : ` (${row.role})`}`} row={row} />;
  if (row.kind === "rejected-input") {
    return (
      <article {...common} aria-label={`Not sent, item ${row.itemId}`}>
        <RowHeader
          row={row}
          tag={row.rejected?.reason === undefined ? "Not sent — too large for a fresh window" : "Not sent"}
        />
        <Body row={row} />
        {row.rejected === undefined ? null : <RejectedNotes rejected={row.rejected} />}
        {onEdit === undefined ? (
          <p className="hint">Start the server with a model to edit and send it again.</p>
        ) : (
          <button type="button" className="secondary" onClick={() => onEdit(row.text)}>
            Edit in the chat box
          </button>
        )}
      </article>
    );
  }
  const editable = onEditMessage !== undefined && row.kind === "message" && row.role === "user" && !row.truncated;
  return (
    <article {...common} aria-label={`${row.role}, item ${row.itemId}`}>
      <RowHeader row={row} />
      {editable ? <EditableBody row={row} onEditMessage={onEditMessage} /> : <Body row={row} />}
    </article>
  );
}

/** Why the input was not sent and, for a cut row, what of it is missing: the edit starts from what is stored. */
function RejectedNotes({ rejected }: { rejected: RowRejected }) {
  const { reason, cut } = rejected;
  return (
    <>
      {reason === undefined ? null : <p className="hint rejected-reason">{reason}</p>}
      {cut === undefined ? null : (
        <p className="hint rejected-cut" role="note">
          Only the first {formatCount(cut.keptChars)} of {formatCount(cut.totalChars)} characters are stored (the
          store&apos;s row limit)
          {cut.droppedFiles === 0
            ? ""
            : `; ${cut.droppedFiles} attached file${cut.droppedFiles === 1 ? " was" : "s were"} replaced by ` +
              `a line naming ${cut.droppedFiles === 1 ? "it" : "them"}`}
          . An edit starts from what is stored.
        </p>
      )}
    </>
  );
}

/** A user message with "Edit": the edited text goes to a fork made just before it, never into this session. */
function EditableBody({
  row,
  onEditMessage,
}: {
  row: RowView;
  onEditMessage: (row: RowView, text: string) => Promise<string | undefined>;
}) {
  const [text, setText] = useState<string | undefined>(undefined);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const fieldId = useId();
  if (text === undefined) {
    return (
      <>
        <Body row={row} />
        <button
          type="button"
          className="link-button"
          onClick={() => setText(row.text)}
          aria-label={`Edit item ${row.itemId} in a fork`}
        >
          Edit
        </button>
      </>
    );
  }
  const submit = async () => {
    setSending(true);
    setFailure(await onEditMessage(row, text));
    setSending(false);
  };
  return (
    <form
      className="row-edit"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label htmlFor={fieldId} className="hint">
        The edited message is sent in a new fork of this session made just before item {row.itemId}; this session stays
        as it is.
      </label>
      <textarea id={fieldId} value={text} onChange={(event) => setText(event.target.value)} disabled={sending} />
      <div className="row-edit-actions">
        <button type="submit" disabled={sending || text.trim() === ""}>
          Send in a fork
        </button>
        <button type="button" className="secondary" onClick={() => setText(undefined)} disabled={sending}>
          Cancel
        </button>
      </div>
      {failure === undefined ? null : (
        <p className="error" role="alert">
          {failure}
        </p>
      )}
    </form>
  );
}

type Common = { className: string; "data-seq": number; "data-window": number; id: string };

function Divider({ row, boundary, common }: { row: RowView; boundary: RowBoundary; common: Common }) {
  const [open, setOpen] = useState(false);
  const summaryId = useId();
  const label = dividerLabel({ windowNumber: row.windowNumber, boundary });
  return (
    <div
      {...common}
      className={`${common.className} divider divider-${boundary.kind}`}
      role="separator"
      aria-label={label}
    >
      <div className="divider-line">
        <span className="divider-label">{label}</span>
      </div>
      {boundary.kind === "compaction" && row.text !== "" ? (
        <div className="divider-extra">
          <button
            type="button"
            className="link-button"
            aria-expanded={open}
            aria-controls={summaryId}
            onClick={() => setOpen(!open)}
          >
            {open ? "Hide the summary" : "Show the summary"}
          </button>
          {open ? (
            <div id={summaryId}>
              <LongText text={row.text} />
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function Collapsed({ common, label, row }: { common: Common; label: string; row: RowView }) {
  const [open, setOpen] = useState(false);
  const textId = useId();
  return (
    <div {...common}>
      <button
        type="button"
        className="collapsed-toggle"
        aria-expanded={open}
        aria-controls={textId}
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">{open ? "▾" : "▸"}</span> {label}
      </button>
      {open ? (
        <div id={textId}>
          <LongText text={row.text} className="text collapsed-text" />
        </div>
      ) : null}
    </div>
  );
}

/** The hidden `continue` row that carries a stopped turn: what it carried, call by call, then its text. */
function Continuation({ common, carry, row }: { common: Common; carry: RowCarry; row: RowView }) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  return (
    <div {...common}>
      <button
        type="button"
        className="collapsed-toggle"
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">{open ? "▾" : "▸"}</span> {carryLabel(carry)}
      </button>
      {open ? (
        <div id={detailsId}>
          {carry.calls.length === 0 ? null : (
            <ol className="carry-calls">
              {carry.calls.map((call, index) => (
                <li key={index} className={`carry-call carry-call-${call.outcome}`}>
                  <span className="tool-name">{call.toolName}</span> {call.input}{" "}
                  <span className="carry-outcome">
                    — {call.outcome === "not-run" ? "not run" : call.outcome}
                    {call.outcome === "finished" ? ` (item ${call.itemId})` : ""}
                    {call.detail === undefined ? "" : `: ${call.detail}`}
                  </span>
                </li>
              ))}
            </ol>
          )}
          <LongText text={row.text} className="text collapsed-text" />
        </div>
      ) : null}
    </div>
  );
}

function carryLabel(carry: RowCarry): string {
  const count = (outcome: string) => carry.calls.filter((call) => call.outcome === outcome).length;
  const outcomes = [`${count("finished")} finished`, `${count("failed")} failed`, `${count("not-run")} not run`].filter(
    (text) => !text.startsWith("0 "),
  );
  const calls = carry.calls.length + carry.omittedCalls;
  const input = carry.input === undefined ? "" : ` its input (item ${carry.input.itemId}) and`;
  return (
    `Continuation — carries the stopped turn:${input} ` +
    `${calls} tool call${calls === 1 ? "" : "s"}${outcomes.length === 0 ? "" : ` (${outcomes.join(", ")})`}`
  );
}

function RowHeader({ row, tag }: { row: RowView; tag?: string }) {
  return (
    <header className="row-header">
      <span className="row-role">{row.role}</span>
      {tag === undefined ? null : <span className="row-tag">{tag}</span>}
      <span className="row-meta">
        #{row.itemId} · <time dateTime={row.createdAt}>{formatTime(row.createdAt)}</time>
      </span>
    </header>
  );
}

function Body({ row }: { row: RowView }) {
  const parts = row.parts.length > 0 ? row.parts : [{ type: "text", text: row.text } satisfies RowPart];
  return (
    <div className="row-body">
      {parts.map((part, index) => (
        <Part key={index} part={part} />
      ))}
      {row.truncated ? <p className="hint">(shortened — the full text is in the transcript store)</p> : null}
    </div>
  );
}

function Part({ part }: { part: RowPart }) {
  if (part.type === "text") return part.text === "" ? null : <LongText text={part.text} />;
  if (part.type === "tool")
    return (
      <ToolCall
        toolName={part.toolName}
        state={part.state}
        outcome={part.outcome}
        input={part.input}
        output={part.output}
        childSessionId={part.childSessionId}
      />
    );
  if (part.type === "file")
    return (
      <div className="attachment">
        [file{part.filename === undefined ? "" : ` ${part.filename}`} · {part.mediaType}]
      </div>
    );
  return <div className="attachment">[{part.label}]</div>;
}
