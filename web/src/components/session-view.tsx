/**
 * One session: budget bar, transcript, side panel (windows, history search, settings) and the chat
 * box, kept current by the session's server-sent events. This page's own chat runs on `useChat`
 * (use-session-chat.ts): its answer streams below the rows until its rows are stored. Where the
 * session comes from (a sub-agent's parent, a fork's origin) and its sub-agents' sessions are
 * linked under the title; "Edit" on a user message forks the session just before it, opens the
 * fork and sends the edited text there (ADR 0070).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { ApiClient } from "../api/client";
import type { InfoView, RowView, SessionDetail, SessionSummary, UsageView, WindowView } from "../api/types";
import { formatPercent } from "../format";
import { usageWithLive } from "../live-usage";
import { holdMessage, takeMessage } from "../pending-message";
import { sessionHref } from "../use-hash-route";
import { useSessionChat } from "../use-session-chat";
import { useSessionEvents, type SessionEvent } from "../use-session-events";
import { useTranscript } from "../use-transcript";
import { BudgetBar } from "./budget-bar";
import { ChatBox } from "./chat-box";
import { ContextTimeline } from "./context-timeline";
import { HistorySearch } from "./history-search";
import { LiveAnswer } from "./live-answer";
import { SettingsPanel } from "./settings-panel";
import { Transcript } from "./transcript";
import { WindowsPanel } from "./windows-panel";

type Panel = "windows" | "search" | "settings";
const PANELS: { id: Panel; label: string }[] = [
  { id: "windows", label: "Windows" },
  { id: "search", label: "Search" },
  { id: "settings", label: "Settings" },
];

/** @example <SessionView api={api} info={info} sessionId="abc" /> */
export function SessionView({
  api,
  info,
  sessionId,
}: {
  api: ApiClient;
  info: InfoView | undefined;
  sessionId: string;
}) {
  const [internal, setInternal] = useState(false);
  const transcript = useTranscript({ api, sessionId, internal });
  const [detail, setDetail] = useState<SessionDetail | undefined>(undefined);
  const [loadError, setLoadError] = useState<string | undefined>(undefined);
  const [usage, setUsage] = useState<UsageView | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [windows, setWindows] = useState<WindowView[]>([]);
  const [children, setChildren] = useState<SessionSummary[]>([]);
  const [panel, setPanel] = useState<Panel | undefined>(() =>
    window.matchMedia("(min-width: 900px)").matches ? "windows" : undefined,
  );
  const [streamingText, setStreamingText] = useState("");
  const streamed = useRef(0);
  const [highlightSeq, setHighlightSeq] = useState<number | undefined>(undefined);
  const [notice, setNotice] = useState<{ text: string; error: boolean } | undefined>(undefined);
  const [draft, setDraft] = useState("");
  const chatInput = useRef<HTMLTextAreaElement>(null);
  const chat = useSessionChat({
    api,
    sessionId,
    onSettled: () => transcript.catchUp(),
    onData: (part) => {
      if (part.type === "data-ctxwin-usage") setUsage((previous) => usageWithLive(previous, part.data));
      if (part.type === "data-ctxwin-retry")
        setNotice({
          text: `The provider failed mid-answer; asking again (retry ${part.data.retry}): ${part.data.message}`,
          error: false,
        });
    },
  });
  /**
   * This page's turn while it runs: the last stored row when it was sent. Its message and answer
   * show live until rows past that one are in the transcript, and never both (ADR 0057).
   */
  const ownTurn = useRef<{ afterSeq: number } | undefined>(undefined);
  const send = async (text: string): Promise<string | undefined> => {
    ownTurn.current = { afterSeq: Math.max(detail?.lastSeq ?? 0, transcript.rows.at(-1)?.seq ?? 0) };
    try {
      return await chat.send(text);
    } finally {
      ownTurn.current = undefined;
    }
  };
  const liveTurn = ownTurn.current;
  const liveMessages =
    liveTurn !== undefined && transcript.rows.some((row) => row.seq > liveTurn.afterSeq) ? [] : chat.messages;
  /** Bumped when stored rows may have changed, so the timeline reloads. */
  const [rowsVersion, setRowsVersion] = useState(0);
  const rowsChanged = () => setRowsVersion((version) => version + 1);

  const refresh = useCallback(async () => {
    try {
      const [loaded, loadedWindows, loadedChildren] = await Promise.all([
        api.session(sessionId),
        api.windows(sessionId),
        api.children(sessionId),
      ]);
      setDetail(loaded);
      setChildren(loadedChildren);
      setUsage(loaded.usage);
      setBusy(loaded.busy);
      setWindows(loadedWindows);
      setLoadError(undefined);
    } catch (error) {
      setLoadError(error instanceof Error ? error.message : String(error));
    }
  }, [api, sessionId]);

  useEffect(() => {
    setDetail(undefined);
    setStreamingText("");
    streamed.current = 0;
    void refresh();
  }, [refresh]);

  useEffect(() => {
    document.title = `${detail?.title ?? sessionId} — ctxwin`;
    return () => {
      document.title = "ctxwin";
    };
  }, [detail?.title, sessionId]);

  /** The rows of a finished step are stored: fetch them, then drop the text they replace. */
  const settleStep = async () => {
    const length = streamed.current;
    await transcript.catchUp();
    streamed.current -= length;
    setStreamingText((text) => text.slice(length));
  };

  const onEvent = (event: SessionEvent) => {
    switch (event.name) {
      case "turn-start":
        setBusy(true);
        setNotice(undefined);
        return;
      case "text-delta":
        // This page's own answer streams through useChat.
        if (chat.running) return;
        streamed.current += event.data.delta.length;
        setStreamingText((text) => text + event.data.delta);
        return;
      case "step-end":
        if (!chat.running) void settleStep();
        rowsChanged();
        return;
      case "usage":
        // While a turn streams the events carry no spend: the window's last known one stays.
        setUsage((previous) =>
          event.data.spend === null && previous?.windowId === event.data.windowId
            ? { ...event.data, spend: previous.spend }
            : event.data,
        );
        return;
      case "budget-warning":
        setNotice({
          text: "Budget warning: the agent was asked to write its notes before the window rolls over.",
          error: false,
        });
        return;
      case "rollover":
        setNotice({
          text: `Rolled over to a new context window${event.data.percent === null ? "" : ` at ${formatPercent(event.data.percent)}`} (${event.data.reason}).`,
          error: false,
        });
        void api
          .windows(sessionId)
          .then(setWindows, (error: unknown) =>
            setNotice({ text: error instanceof Error ? error.message : String(error), error: true }),
          );
        rowsChanged();
        return;
      case "blocked":
        setNotice({ text: `Not sent: ${event.data.reason}`, error: true });
        return;
      case "error":
        setNotice({ text: event.data.message, error: true });
        return;
      case "retry": {
        // The cut step's text is not stored: take it off the streaming text before the retry streams.
        const discarded = Math.min(event.data.discardedChars, streamed.current);
        streamed.current -= discarded;
        setStreamingText((text) => text.slice(0, text.length - discarded));
        setNotice({
          text: `The provider failed mid-answer; asking again (retry ${event.data.retry}): ${event.data.message}`,
          error: false,
        });
        return;
      }
      case "turn-end":
        setBusy(false);
        void settleStep().then(refresh);
        rowsChanged();
        return;
      case "rows":
        // This page's own turn: its rows are fetched when the answer ends (they would show it twice).
        if (ownTurn.current === undefined) void transcript.catchUp();
        rowsChanged();
        return;
    }
  };
  const connected = useSessionEvents({ url: api.eventsUrl(sessionId), onEvent });

  const jump = (seq: number) => {
    setHighlightSeq(seq);
    void transcript.jumpTo(seq);
  };
  const edit = (text: string) => {
    setDraft(text);
    chatInput.current?.focus();
  };
  const chatAvailable = info?.chat.available === true;

  /**
   * Forks just before the message and what ctxwin wrote with it (a new session for the first one),
   * opens the fork; its page sends the text.
   */
  const editMessage = async (row: RowView, text: string): Promise<string | undefined> => {
    try {
      const target = await api.fork(sessionId, { beforeItem: row.itemId });
      holdMessage(target, text);
      window.location.hash = sessionHref(target);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };

  // An edited message waiting for this session (a fork just made): send it once.
  const sendOnOpen = useRef(send);
  sendOnOpen.current = send;
  // Once the session is read: its last row is where the page's own rows start.
  const detailLoaded = detail !== undefined;
  useEffect(() => {
    if (!chatAvailable || !detailLoaded) return;
    const text = takeMessage(sessionId);
    if (text === undefined) return;
    void sendOnOpen.current(text).then((failure) => {
      if (failure === undefined) return;
      setDraft(text);
      setNotice({ text: failure, error: true });
    });
  }, [chatAvailable, detailLoaded, sessionId]);

  return (
    <main className="session-page">
      <div className="session-header">
        <a href="#/" className="back-link">
          ← Sessions
        </a>
        <h1 className="session-title-heading">{detail?.title ?? sessionId}</h1>
        <label className="toggle">
          <input type="checkbox" checked={internal} onChange={(event) => setInternal(event.target.checked)} /> Show
          internal rows
        </label>
      </div>
      <SessionOrigin detail={detail} subagents={children} />
      {loadError === undefined ? null : (
        <p className="error" role="alert">
          {loadError}
        </p>
      )}
      {usage === undefined ? null : <BudgetBar usage={usage} />}
      <div className="session-body">
        <div className="main-column">
          <p className={`notice${notice?.error === true ? " error" : ""}`} role="status" aria-live="polite">
            {notice?.text ?? (connected ? "" : "Connecting to live updates…")}
          </p>
          <ContextTimeline api={api} sessionId={sessionId} version={rowsVersion} onJump={jump} />
          <Transcript
            transcript={transcript}
            streamingText={streamingText}
            live={<LiveAnswer messages={liveMessages} windows={windows} />}
            liveSize={liveSize(liveMessages)}
            highlightSeq={highlightSeq}
            showInternal={internal}
            onEdit={chatAvailable ? edit : undefined}
            onEditMessage={chatAvailable ? editMessage : undefined}
          />
          {chatAvailable ? (
            <ChatBox
              api={api}
              sessionId={sessionId}
              busy={busy || chat.running}
              draft={draft}
              onDraftChange={setDraft}
              onSend={send}
              onChanged={() => void refresh().then(transcript.catchUp)}
              textareaRef={chatInput}
            />
          ) : (
            <p className="hint chat-off">Read-only: start `ctxwin serve --model …` (or `--demo-model`) to chat here.</p>
          )}
        </div>
        <aside className="side-panel" aria-label="Session tools">
          <div className="tabs" role="group" aria-label="Panels">
            {PANELS.map(({ id, label }) => (
              <button
                key={id}
                type="button"
                className="tab"
                aria-pressed={panel === id}
                onClick={() => setPanel(panel === id ? undefined : id)}
              >
                {label}
              </button>
            ))}
          </div>
          {panel === undefined ? null : (
            <div className="panel-content">
              {panel === "windows" ? (
                <WindowsPanel windows={windows} activeWindowId={usage?.windowId} onJump={jump} />
              ) : null}
              {panel === "search" ? (
                <HistorySearch
                  api={api}
                  sessionId={sessionId}
                  {...(info?.search === undefined ? {} : { modes: info.search.modes })}
                  onJump={jump}
                />
              ) : null}
              {panel === "settings" ? <SettingsPanel api={api} /> : null}
            </div>
          )}
        </aside>
      </div>
    </main>
  );
}

/** Where the session comes from and the sessions its sub-agents ran in, as links. */
function SessionOrigin({ detail, subagents }: { detail: SessionDetail | undefined; subagents: SessionSummary[] }) {
  if (detail === undefined || (detail.parent === null && detail.forkOf === null && subagents.length === 0)) return null;
  return (
    <p className="session-origin" aria-label="Session lineage">
      {detail.parent === null ? null : (
        <span>
          Sub-agent session of <a href={sessionHref(detail.parent.sessionId)}>{detail.parent.sessionId}</a> (its task
          call at item {detail.parent.itemId}).{" "}
        </span>
      )}
      {detail.forkOf === null ? null : (
        <span>
          Fork of <a href={sessionHref(detail.forkOf.sessionId)}>{detail.forkOf.sessionId}</a> after item{" "}
          {detail.forkOf.atItem}.{" "}
        </span>
      )}
      {subagents.length === 0 ? null : (
        <span>
          Sub-agents:{" "}
          {subagents.map((child, index) => (
            <span key={child.sessionId}>
              {index === 0 ? "" : ", "}
              <a href={sessionHref(child.sessionId)}>{child.title}</a>
            </span>
          ))}
        </span>
      )}
    </p>
  );
}

/** How much of the live answer there is (parts and text), so the transcript follows it as it grows. */
function liveSize(messages: ReturnType<typeof useSessionChat>["messages"]): number {
  return messages.reduce(
    (size, message) =>
      size + message.parts.reduce((total, part) => total + 1 + (part.type === "text" ? part.text.length : 0), 0),
    0,
  );
}
