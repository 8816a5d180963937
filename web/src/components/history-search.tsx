/**
 * Search of the session's history, literal or ranked (optionally newest first), or by meaning
 * (hybrid, semantic) when the server has an embedding model, from one role or calling one tool, with
 * the same privacy floor as the agent's `session_history` tool (nothing before your last soft clear). Choosing a hit jumps to it.
 */
import { useId, useState, type FormEvent } from "react";
import type { ApiClient } from "../api/client";
import type { SearchEmbeddingsNote, SearchHit, SearchMode } from "../api/types";
import { markedPieces } from "../format";

const MODE_LABELS: Record<SearchMode, string> = {
  literal: "exact text",
  ranked: "ranked words",
  hybrid: "words + meaning",
  semantic: "meaning only",
};
const ORDERABLE: readonly SearchMode[] = ["ranked", "hybrid", "semantic"];

/** @example <HistorySearch api={api} sessionId={id} modes={info.search.modes} onJump={(seq) => transcript.jumpTo(seq)} /> */
export function HistorySearch({
  api,
  sessionId,
  modes = ["literal", "ranked"],
  onJump,
}: {
  api: ApiClient;
  sessionId: string;
  modes?: readonly SearchMode[];
  onJump: (seq: number) => void;
}) {
  const [query, setQuery] = useState("");
  const [mode, setMode] = useState<SearchMode>("literal");
  const [newest, setNewest] = useState(false);
  const [role, setRole] = useState<"" | "user" | "assistant">("");
  const [tool, setTool] = useState("");
  const [hits, setHits] = useState<SearchHit[] | undefined>(undefined);
  const [embeddings, setEmbeddings] = useState<SearchEmbeddingsNote | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [searching, setSearching] = useState(false);
  const inputId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (query.trim() === "") return;
    setSearching(true);
    setError(undefined);
    try {
      const narrowing = {
        ...(role === "" ? {} : { role }),
        ...(tool.trim() === "" ? {} : { tool }),
        ...(ORDERABLE.includes(mode) && newest ? { order: "newest" as const } : {}),
      };
      const result = await api.search(sessionId, { query, mode, ...narrowing });
      setHits(result.hits);
      setEmbeddings(result.embeddings);
    } catch (failure) {
      setHits(undefined);
      setEmbeddings(undefined);
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setSearching(false);
    }
  };

  return (
    <div className="history-search">
      <form role="search" onSubmit={(event) => void submit(event)}>
        <label htmlFor={inputId}>Search this session's history</label>
        <div className="search-row">
          <input
            id={inputId}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            autoComplete="off"
          />
          <button type="submit" disabled={searching || query.trim() === ""}>
            Search
          </button>
        </div>
        <fieldset className="mode">
          <legend>Match</legend>
          {modes.map((choice) => (
            <label key={choice}>
              <input
                type="radio"
                name="mode"
                value={choice}
                checked={mode === choice}
                onChange={() => setMode(choice)}
              />{" "}
              {MODE_LABELS[choice]}
            </label>
          ))}
          {ORDERABLE.includes(mode) ? (
            <label>
              <input type="checkbox" checked={newest} onChange={(event) => setNewest(event.target.checked)} /> newest
              first
            </label>
          ) : null}
        </fieldset>
        <div className="search-filters">
          <label>
            From{" "}
            <select value={role} onChange={(event) => setRole(event.target.value as "" | "user" | "assistant")}>
              <option value="">anyone</option>
              <option value="user">user</option>
              <option value="assistant">assistant</option>
            </select>
          </label>
          <label>
            Tool{" "}
            <input
              type="text"
              value={tool}
              onChange={(event) => setTool(event.target.value)}
              placeholder="any"
              size={10}
              autoComplete="off"
            />
          </label>
        </div>
      </form>
      <p className="hint">Like the agent's history tool, this finds nothing before your last soft clear.</p>
      {error === undefined ? null : (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {embeddings?.message === undefined ? null : (
        <p className="hint embeddings-note" role="note">
          {embeddings.message}
        </p>
      )}
      {hits === undefined ? null : hits.length === 0 ? (
        <p role="status">No matches.</p>
      ) : (
        <>
          <p role="status">
            {hits.length} {hits.length === 1 ? "match" : "matches"}
          </p>
          <ol className="hits">
            {hits.map((hit) => (
              <li key={hit.itemId}>
                <button type="button" className="hit" onClick={() => onJump(hit.seq)}>
                  <span className="hit-where">
                    Window {hit.windowNumber} · {hit.role} · #{hit.itemId}
                  </span>
                  <span className="hit-snippet">
                    {markedPieces(hit.snippet, hit.matches).map((piece, index) =>
                      piece.marked ? <mark key={index}>{piece.text}</mark> : piece.text,
                    )}
                  </span>
                </button>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
