/**
 * The Eval view (`#/eval`): a `ctxwin eval` run loaded with `ctxwin serve --eval`. Per suite, bar
 * charts comparing the strategies' score and tokens (cost on the bars), the comparison table
 * `ctxwin eval` prints, and the items' results with their errors, a page at a time (all strategies
 * or one), so a run of any size opens at once.
 */
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { ITEM_COLUMNS, SUMMARY_COLUMNS } from "../../../src/core/chart/eval-columns.js";
import { scoreChart, scoreText, tokenChart } from "../../../src/core/chart/strategy-charts.js";
import type { ApiClient } from "../api/client";
import type { EvalItemView, EvalRunView, EvalSummaryRow } from "../api/eval-types";
import { formatTime, formatTokens } from "../format";
import { EvalBarChart } from "./eval-bar-chart";

const dollars = (value: number | null) => (value === null ? "–" : `$${value.toFixed(4)}`);

/** @example <EvalView api={api} /> */
export function EvalView({ api }: { api: ApiClient }) {
  const [view, setView] = useState<EvalRunView | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  useEffect(() => {
    let live = true;
    api.evalRun().then(
      (loaded) => live && setView(loaded),
      (failure: unknown) => live && setError(failure instanceof Error ? failure.message : String(failure)),
    );
    return () => {
      live = false;
    };
  }, [api]);

  return (
    <main className="eval-page">
      <h1>Eval</h1>
      {error === undefined ? null : (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {view === undefined ? (
        error === undefined ? (
          <p className="hint">Loading…</p>
        ) : null
      ) : (
        <>
          <p className="eval-run" data-testid="eval-run">
            {view.run.model} · context limit {formatTokens(view.run.contextLimit)} · seed {view.run.seed} · started{" "}
            <time dateTime={view.run.startedAt}>{formatTime(view.run.startedAt)}</time> ·{" "}
            <span className="eval-file">{view.file}</span>
          </p>
          {view.suites.length === 0 ? <p className="hint">No results in the file yet.</p> : null}
          {view.suites.map((suite) => (
            <EvalSuite key={suite} api={api} suite={suite} rows={view.summary.filter((row) => row.suite === suite)} />
          ))}
        </>
      )}
    </main>
  );
}

function EvalSuite({ api, suite, rows }: { api: ApiClient; suite: string; rows: EvalSummaryRow[] }) {
  return (
    <section className="eval-suite" aria-label={`Suite ${suite}`} data-suite={suite}>
      <h2>{suite}</h2>
      <div className="eval-charts">
        <EvalBarChart chart={scoreChart(rows)} label={`Score by strategy, ${suite}`} />
        <EvalBarChart chart={tokenChart(rows)} label={`Tokens and cost by strategy, ${suite}`} />
      </div>
      <ComparisonTable suite={suite} rows={rows} />
      <ItemPages api={api} suite={suite} strategies={rows.map((row) => row.strategy)} />
    </section>
  );
}

/** Items per page of the Eval view. */
export const EVAL_ITEMS_PAGE = 50;

/** The suite's items, a page at a time, of every strategy or one; "Show more items" loads the next page. */
function ItemPages({ api, suite, strategies }: { api: ApiClient; suite: string; strategies: string[] }) {
  const [strategy, setStrategy] = useState("");
  const [pages, setPages] = useState<{ items: EvalItemView[]; total: number; nextCursor: string | null } | undefined>(
    undefined,
  );
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);

  const load = useCallback(
    async (cursor: string | undefined) => {
      setLoading(true);
      setError(undefined);
      try {
        const page = await api.evalItems({
          suite,
          limit: EVAL_ITEMS_PAGE,
          ...(strategy === "" ? {} : { strategy }),
          ...(cursor === undefined ? {} : { cursor }),
        });
        setPages((previous) => ({
          items: [...(cursor === undefined ? [] : (previous?.items ?? [])), ...page.items],
          total: page.total,
          nextCursor: page.nextCursor,
        }));
      } catch (failure) {
        setError(failure instanceof Error ? failure.message : String(failure));
      } finally {
        setLoading(false);
      }
    },
    [api, suite, strategy],
  );

  useEffect(() => {
    setPages(undefined);
    void load(undefined);
  }, [load]);

  return (
    <>
      <div className="eval-items-head">
        <label>
          Items of{" "}
          <select
            value={strategy}
            onChange={(event) => setStrategy(event.target.value)}
            aria-label={`Items of which strategy, ${suite}`}
          >
            <option value="">every strategy</option>
            {strategies.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        {pages === undefined ? null : (
          <span className="hint eval-items-count" data-testid="eval-items-count">
            {pages.items.length} of {pages.total} shown
          </span>
        )}
      </div>
      {error === undefined ? null : (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <ItemTable suite={suite} items={pages?.items ?? []} />
      {pages?.nextCursor === null || pages === undefined ? null : (
        <button
          type="button"
          className="secondary page-button"
          disabled={loading}
          onClick={() => void load(pages.nextCursor ?? undefined)}
        >
          Show more items
        </button>
      )}
    </>
  );
}

function ComparisonTable({ suite, rows }: { suite: string; rows: EvalSummaryRow[] }) {
  return (
    <EvalTable label={`Comparison, ${suite}`} caption="Comparison" columns={SUMMARY_COLUMNS}>
      {rows.map((row) => (
        <tr key={row.strategy} data-strategy={row.strategy}>
          <th scope="row">{row.strategy}</th>
          <td>{row.items}</td>
          <td>{scoreText(row.score)}</td>
          <td>{scoreText(row.evidenceReached)}</td>
          <td>{row.failed}</td>
          <td>{row.blocked}</td>
          <td>{formatTokens(row.inputTokens)}</td>
          <td>{formatTokens(row.outputTokens)}</td>
          <td>{dollars(row.costUsd)}</td>
          <td>{row.wallSeconds.toFixed(1)}</td>
          <td>{row.rollovers}</td>
          <td>{row.compactions}</td>
          <td>{row.historyCalls}</td>
        </tr>
      ))}
    </EvalTable>
  );
}

function ItemTable({ suite, items }: { suite: string; items: EvalItemView[] }) {
  return (
    <EvalTable label={`Items, ${suite}`} caption="Items" columns={ITEM_COLUMNS}>
      {items.map((item) => (
        <tr
          key={`${item.itemId}/${item.strategy}`}
          className={`eval-item-${item.status}`}
          data-item={item.itemId}
          data-strategy={item.strategy}
        >
          <th scope="row">{item.itemId}</th>
          <td>{item.strategy}</td>
          <td>{item.status}</td>
          <td>{item.status === "failed" ? "–" : scoreText(item.score)}</td>
          <td>{formatTokens(item.inputTokens)}</td>
          <td>{formatTokens(item.outputTokens)}</td>
          <td>{dollars(item.costUsd)}</td>
          <td>{item.rollovers}</td>
          <td>{item.compactions}</td>
          <td>{item.historyCalls}</td>
          <td className="eval-error">{item.error ?? ""}</td>
        </tr>
      ))}
    </EvalTable>
  );
}

/** The frame both tables share: a labelled table with a caption, one header row of `columns`, and the body rows as children. */
function EvalTable({
  label,
  caption,
  columns,
  children,
}: {
  label: string;
  caption: string;
  columns: readonly string[];
  children: ReactNode;
}) {
  return (
    <div className="eval-table">
      <table aria-label={label}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
