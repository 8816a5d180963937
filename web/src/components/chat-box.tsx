/**
 * The message box for the session's agent (only when the server runs a model): Enter sends,
 * Shift+Enter adds a line; `/clear --soft` and `/compact` typed here (or the buttons) act on the
 * session; Interrupt stops a running turn. A message goes through `onSend` (the page's `useChat`).
 */
import { useId, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from "react";
import type { ApiClient } from "../api/client";

export interface ChatBoxProps {
  api: ApiClient;
  sessionId: string;
  busy: boolean;
  draft: string;
  onDraftChange: (text: string) => void;
  /** Sends a message; resolves when its answer ended, with the error's text when it failed. */
  onSend: (text: string) => Promise<string | undefined>;
  /** Called after a command changed the session (a clear or a compaction). */
  onChanged: () => void;
  textareaRef?: RefObject<HTMLTextAreaElement | null>;
}

type Command =
  { type: "send"; text: string } | { type: "clear" } | { type: "compact" } | { type: "unknown"; text: string };

/** @example parseCommand("/clear --soft") // { type: "clear" } */
export function parseCommand(input: string): Command {
  const trimmed = input.trim();
  if (trimmed === "/clear --soft") return { type: "clear" };
  if (trimmed === "/compact") return { type: "compact" };
  if (/^\/[a-z]/i.test(trimmed)) return { type: "unknown", text: trimmed };
  return { type: "send", text: input };
}

/** @example <ChatBox api={api} sessionId={id} busy={false} draft="" onDraftChange={setDraft} onSend={chat.send} onChanged={refresh} /> */
export function ChatBox({ api, sessionId, busy, draft, onDraftChange, onSend, onChanged, textareaRef }: ChatBoxProps) {
  const [status, setStatus] = useState<{ text: string; error: boolean } | undefined>(undefined);
  const [working, setWorking] = useState(false);
  const inputId = useId();
  const ownRef = useRef<HTMLTextAreaElement>(null);
  const ref = textareaRef ?? ownRef;

  const run = async (command: Command) => {
    if (command.type === "unknown") {
      setStatus({ text: `Unknown command ${command.text}. Commands: /clear --soft, /compact.`, error: true });
      return;
    }
    if (command.type === "send" && command.text.trim() === "") return;
    setWorking(true);
    setStatus(undefined);
    try {
      if (command.type === "send") {
        onDraftChange("");
        const failure = await onSend(command.text);
        // A refused message goes back into the box to be edited.
        if (failure !== undefined) {
          onDraftChange(command.text);
          setStatus({ text: failure, error: true });
        }
      } else if (command.type === "clear") {
        await api.clear(sessionId);
        onDraftChange("");
        setStatus({
          text: "Cleared: a new window starts here, and the agent can no longer look back past this point.",
          error: false,
        });
        onChanged();
      } else {
        setStatus({ text: "Compacting…", error: false });
        const result = await api.compact(sessionId);
        onDraftChange("");
        setStatus(
          result.status === "skipped"
            ? { text: `Nothing compacted${result.reason === undefined ? "." : `: ${result.reason}`}`, error: false }
            : { text: "Compacted: a new window starts from a summary.", error: false },
        );
        onChanged();
      }
    } catch (error) {
      setStatus({ text: error instanceof Error ? error.message : String(error), error: true });
    } finally {
      setWorking(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(parseCommand(draft));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (!busy && !working) void run(parseCommand(draft));
    }
  };

  const interrupt = async () => {
    try {
      const interrupted = await api.interrupt(sessionId);
      setStatus({ text: interrupted ? "Interrupted." : "Nothing was running.", error: false });
    } catch (error) {
      setStatus({ text: error instanceof Error ? error.message : String(error), error: true });
    }
  };

  return (
    <form className="chat" onSubmit={submit} aria-label="Chat with the agent">
      <label htmlFor={inputId} className="visually-hidden">
        Message to the agent
      </label>
      <textarea
        id={inputId}
        ref={ref}
        rows={2}
        value={draft}
        placeholder="Message the agent… (/clear --soft, /compact)"
        aria-describedby={`${inputId}-keys`}
        onChange={(event) => onDraftChange(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <p id={`${inputId}-keys`} className="visually-hidden">
        Enter sends, Shift+Enter starts a new line.
      </p>
      <div className="chat-actions">
        {busy ? (
          <button type="button" className="danger" onClick={() => void interrupt()}>
            Interrupt
          </button>
        ) : (
          <button type="submit" disabled={working || draft.trim() === ""}>
            Send
          </button>
        )}
        <button
          type="button"
          className="secondary"
          disabled={busy || working}
          onClick={() => void run({ type: "clear" })}
        >
          Soft clear
        </button>
        <button
          type="button"
          className="secondary"
          disabled={busy || working}
          onClick={() => void run({ type: "compact" })}
        >
          Compact
        </button>
      </div>
      {status === undefined ? null : (
        <p className={status.error ? "error" : "status"} role={status.error ? "alert" : "status"}>
          {status.text}
        </p>
      )}
    </form>
  );
}
