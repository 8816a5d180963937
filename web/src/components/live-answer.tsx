/**
 * The message being answered and its answer as `useChat` builds it, below the stored rows: text,
 * tool calls as they stream (the AI SDK's tool parts), a divider the moment a rollover or a
 * compaction happens, the budget warning, and a blocked turn. The stored rows replace it when the
 * answer ends.
 */
import type { ChatMessage, ChatPart, LiveRollover } from "../api/chat-types";
import type { WindowView } from "../api/types";
import { dividerLabel } from "../format";
import { ToolCall } from "./tool-call";

/** @example <LiveAnswer messages={chat.messages} windows={windows} /> */
export function LiveAnswer({ messages, windows }: { messages: ChatMessage[]; windows: WindowView[] }) {
  if (messages.length === 0) return null;
  const numbers = windowNumbers(messages, windows);
  return (
    <div className="live-answer" data-testid="live-answer" aria-live="polite" aria-label="Reply in progress">
      {messages.map((message) => (
        <article key={message.id} className={`row row-message role-${message.role} row-live`}>
          <header className="row-header">
            <span className="row-role">{message.role}</span>
            {message.role === "assistant" ? <span className="row-tag">writing…</span> : null}
          </header>
          <div className="row-body">
            {message.parts.map((part, index) => (
              <LivePart key={index} part={part} numbers={numbers} />
            ))}
          </div>
        </article>
      ))}
    </div>
  );
}

function LivePart({ part, numbers }: { part: ChatPart; numbers: Map<string, number> }) {
  if (part.type === "text") return part.text === "" ? null : <div className="text">{part.text}</div>;
  if (part.type === "dynamic-tool") return <LiveTool toolName={part.toolName} part={part} />;
  if (part.type.startsWith("tool-"))
    return <LiveTool toolName={part.type.slice("tool-".length)} part={part as ToolPart} />;
  switch (part.type) {
    case "data-ctxwin-rollover":
      return <LiveDivider kind="rollover" label={rolloverLabel(part.data, numbers.get(part.data.windowId) ?? 0)} />;
    case "data-ctxwin-compaction":
      return (
        <LiveDivider
          kind="compaction"
          label={dividerLabel({ windowNumber: numbers.get(part.data.windowId) ?? 0, boundary: { kind: "compaction" } })}
        />
      );
    case "data-ctxwin-warning":
      return (
        <details className="row row-warning row-live-warning">
          <summary className="collapsed-toggle">Budget warning — the agent was asked to write its notes now</summary>
          <div className="text collapsed-text">{part.data.text}</div>
        </details>
      );
    case "data-ctxwin-notes-flush":
      return <p className="hint">Notes flush — one memory-only step before the window rolls over.</p>;
    case "data-ctxwin-blocked":
      return <p className="error">Not sent: {part.data.reason}</p>;
    default:
      return null;
  }
}

type ToolPart = { state: string; input?: unknown; output?: unknown; errorText?: string };

function LiveTool({ toolName, part }: { toolName: string; part: ToolPart }) {
  const output =
    part.errorText ??
    (part.output === undefined
      ? ""
      : typeof part.output === "string"
        ? part.output
        : JSON.stringify(part.output, null, 2));
  // A live part cannot tell a refused call from one that threw: both end in `output-error` (the
  // stored row can, once the page reloads it).
  const outcome = part.state === "output-error" ? "failed" : "finished";
  return (
    <ToolCall
      toolName={toolName}
      state={part.state}
      outcome={outcome}
      input={part.input === undefined ? "" : JSON.stringify(part.input)}
      output={output}
    />
  );
}

function LiveDivider({ kind, label }: { kind: "rollover" | "compaction"; label: string }) {
  return (
    <div className={`divider divider-${kind} divider-live`} role="separator" aria-label={label}>
      <div className="divider-line">
        <span className="divider-label">{label}</span>
      </div>
    </div>
  );
}

function rolloverLabel(rollover: LiveRollover, windowNumber: number): string {
  const percent = rollover.maxTokens > 0 ? Math.round((rollover.contextTokens / rollover.maxTokens) * 100) : undefined;
  return dividerLabel({
    windowNumber,
    boundary: { kind: "rollover", reason: rollover.reason, ...(percent === undefined ? {} : { percent }) },
  });
}

/** The number of each window a live rollover or compaction opens: the one before it, plus one. */
function windowNumbers(messages: ChatMessage[], windows: WindowView[]): Map<string, number> {
  const numbers = new Map(windows.map((window) => [window.windowId, window.number]));
  // Windows are numbered from 1: a session with no window listed yet is in window 1.
  const newest = () => Math.max(1, ...numbers.values());
  for (const part of messages.flatMap((message) => message.parts)) {
    if (part.type !== "data-ctxwin-rollover" && part.type !== "data-ctxwin-compaction") continue;
    if (numbers.has(part.data.windowId)) continue;
    numbers.set(part.data.windowId, (numbers.get(part.data.previousWindowId) ?? newest()) + 1);
  }
  return numbers;
}
