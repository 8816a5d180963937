/**
 * The sessions of the project, newest first, with a search box over ids and titles; a new session
 * can be started when the server runs a model. Sub-agent sessions are nested under their parent,
 * forks say which session and item they started from (session-tree.ts).
 */
import { useEffect, useId, useState } from "react";
import type { ApiClient } from "../api/client";
import type { InfoView, SessionSummary } from "../api/types";
import { formatTime } from "../format";
import { sessionTree, type SessionNode } from "../session-tree";
import { sessionHref } from "../use-hash-route";

/** @example <SessionsList api={api} info={info} /> */
export function SessionsList({ api, info }: { api: ApiClient; info: InfoView | undefined }) {
  const [query, setQuery] = useState("");
  const [sessions, setSessions] = useState<SessionSummary[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const inputId = useId();

  useEffect(() => {
    let live = true;
    const timer = window.setTimeout(() => {
      api.sessions({ query }).then(
        (found) => {
          if (!live) return;
          setSessions(found);
          setError(undefined);
        },
        (failure: unknown) => live && setError(failure instanceof Error ? failure.message : String(failure)),
      );
    }, 150);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [api, query]);

  const startSession = async () => {
    try {
      const sessionId = await api.createSession();
      window.location.hash = sessionHref(sessionId);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };

  return (
    <main className="sessions-page">
      <div className="sessions-toolbar">
        <h1>Sessions</h1>
        {info?.chat.available === true ? (
          <button type="button" onClick={() => void startSession()}>
            New session
          </button>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={inputId}>Find a session by title or id</label>
        <input
          id={inputId}
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          autoComplete="off"
        />
      </div>
      {error === undefined ? null : (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {sessions === undefined ? (
        <p className="hint">Loading…</p>
      ) : sessions.length === 0 ? (
        <p className="hint">{query === "" ? "No sessions in this project yet." : "No session matches."}</p>
      ) : (
        <SessionEntries
          nodes={sessionTree(sessions)}
          titles={new Map(sessions.map((session) => [session.sessionId, session.title]))}
          nested={false}
        />
      )}
    </main>
  );
}

function SessionEntries({
  nodes,
  titles,
  nested,
}: {
  nodes: SessionNode[];
  titles: Map<string, string>;
  nested: boolean;
}) {
  return (
    <ul
      className={nested ? "sessions session-children" : "sessions"}
      aria-label={nested ? "Sub-agent sessions" : undefined}
    >
      {nodes.map(({ session, children }) => (
        <li key={session.sessionId}>
          <a className="session-entry" href={sessionHref(session.sessionId)}>
            <span className="session-title">{session.title}</span>
            <LineageLabel session={session} titles={titles} nested={nested} />
            <span className="session-detail">
              <time dateTime={session.lastActivity}>{formatTime(session.lastActivity)}</time> · {session.windows}{" "}
              {session.windows === 1 ? "window" : "windows"} · {session.rows} {session.rows === 1 ? "row" : "rows"}
              {session.title === session.sessionId ? "" : ` · ${session.sessionId}`}
            </span>
          </a>
          {children.length === 0 ? null : <SessionEntries nodes={children} titles={titles} nested={true} />}
        </li>
      ))}
    </ul>
  );
}

/** Where a session comes from: a sub-agent's parent (when not shown as nesting) or a fork's origin. */
function LineageLabel({
  session,
  titles,
  nested,
}: {
  session: SessionNode["session"];
  titles: Map<string, string>;
  nested: boolean;
}) {
  const name = (sessionId: string) => titles.get(sessionId) ?? sessionId;
  const labels: string[] = [];
  if (session.parent !== null)
    labels.push(
      nested
        ? `sub-agent · task call at item ${session.parent.itemId}`
        : `sub-agent of ${name(session.parent.sessionId)} (item ${session.parent.itemId})`,
    );
  if (session.forkOf !== null)
    labels.push(`fork of ${name(session.forkOf.sessionId)} after item ${session.forkOf.atItem}`);
  if (labels.length === 0) return null;
  return <span className="session-lineage">{labels.join(" · ")}</span>;
}
