/**
 * The web UI's shell: the access token, the server's info, and the page chosen by the address hash
 * (the Eval link only when `ctxwin serve --eval` loaded a run).
 */
import { useEffect, useMemo, useState } from "react";
import { createApiClient } from "./api/client";
import type { InfoView } from "./api/types";
import { EvalView } from "./components/eval-view";
import { SessionView } from "./components/session-view";
import { SessionsList } from "./components/sessions-list";
import { EVAL_HREF, useHashRoute } from "./use-hash-route";

/** @example <App token={takeAccessToken()} /> */
export function App({ token }: { token: string }) {
  const api = useMemo(() => createApiClient({ token }), [token]);
  const route = useHashRoute();
  const [info, setInfo] = useState<InfoView | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  useEffect(() => {
    if (token === "") return;
    api
      .info()
      .then(setInfo, (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)));
  }, [api, token]);

  return (
    <div className="app">
      <header className="app-header">
        <a className="brand" href="#/">
          ctxwin
        </a>
        {info?.eval.loaded === true ? (
          <a className="app-nav" href={EVAL_HREF} aria-current={route.page === "eval" ? "page" : undefined}>
            Eval
          </a>
        ) : null}
        {info === undefined ? null : (
          <span className="server-info">
            <span className="server-dir" title={info.dir}>
              {info.dir}
            </span>
            <span className="server-model">
              {info.chat.available ? `model: ${info.chat.model ?? "?"}${info.chat.demo ? " (demo)" : ""}` : "read-only"}
            </span>
          </span>
        )}
      </header>
      {token === "" ? (
        <p className="error" role="alert">
          No access token. Open the address `ctxwin serve` printed (it ends in ?token=…).
        </p>
      ) : error !== undefined ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {token === "" ? null : route.page === "session" ? (
        <SessionView key={route.sessionId} api={api} info={info} sessionId={route.sessionId} />
      ) : route.page === "eval" ? (
        <EvalView api={api} />
      ) : (
        <SessionsList api={api} info={info} />
      )}
    </div>
  );
}
