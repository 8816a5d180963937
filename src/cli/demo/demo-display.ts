/**
 * What `ctxwin demo` prints while it runs: one line per event (tool, warning, notes, rollover,
 * recovery) and, on a terminal, a budget bar kept live on the last line. The final report follows.
 */
import type { SessionUsage } from "../../session/session-types.js";
import { dim, dividerLine, formatTokens, renderBudgetBar } from "../terminal/budget-bar.js";
import { renderTimelineChart, wantsUnicode } from "../terminal/timeline-chart.js";
import type { DemoEvent, DemoReport } from "./run-demo.js";

export interface DemoDisplay {
  onEvent(event: DemoEvent): void;
  finish(report: DemoReport): void;
}

/**
 * @example
 * const display = createDemoDisplay({ output: process.stdout, live: process.stdout.isTTY === true, color: true });
 */
export function createDemoDisplay({
  output,
  live,
  color,
}: {
  output: NodeJS.WritableStream;
  live: boolean;
  color: boolean;
}): DemoDisplay {
  let usage: SessionUsage | undefined;
  let barShown = false;
  /** Without a live bar, the bar is printed once after each warning and rollover. */
  let barDue = false;
  const clearBar = () => {
    if (barShown) output.write("\r\u001b[2K");
    barShown = false;
  };
  const showBar = () => {
    if (!live || usage === undefined) return;
    clearBar();
    output.write(`  ${renderBudgetBar({ usage, color })}`);
    barShown = true;
  };
  const line = (text: string) => {
    clearBar();
    output.write(`${text}\n`);
    showBar();
  };
  return {
    onEvent(event) {
      switch (event.type) {
        case "start":
          usage = event.usage;
          line(`ctxwin demo: a scripted agent explores ${event.folder}`);
          line(
            dim({
              text: `session ${event.sessionId} · ${event.database} · limit ${formatTokens(event.usage.contextLimit ?? 0)} tokens`,
              color,
            }),
          );
          break;
        case "usage":
          usage = event.usage;
          if (live) showBar();
          else if (barDue) {
            barDue = false;
            line(`  ${renderBudgetBar({ usage })}`);
          }
          break;
        case "tool":
          line(dim({ text: `  · ${event.summary}`, color }));
          break;
        case "warning":
          line(`  ⚠ budget warning in ${event.windowId} at ${event.percent}%: the agent is asked to save notes`);
          break;
        case "notes":
          line(`  ✎ notes written to ${event.path} (${formatTokens(event.bytes)} bytes, pinned into every request)`);
          break;
        case "rollover":
          line(
            dividerLine({
              text:
                `context window ${event.windowNumber} (${event.windowId}) · rolled over at ${event.percent}% ` +
                `· ${event.reason}${event.flushOpportunity ? "" : " · no chance to save notes"}`,
              color,
            }),
          );
          barDue = true;
          break;
        case "notes-flush":
          line(`  ⚑ ${event.windowId} rolls over after this step: one memory-only step to bring the notes up to date`);
          break;
        case "carried":
          line(
            `  ↳ carried into ${event.windowId}: the task (item ${event.carried.itemId}) ` +
              `"${cut(event.carried.input, 90)}" + ${event.carried.calls} tool call(s) with their outcomes`,
          );
          break;
        case "re-read":
          line(`  ↻ re-read after a rollover: ${event.path}`);
          break;
        case "recovery":
          line(`  ↺ recovery: ${event.summary}`);
          break;
        case "delegated":
          line(
            `\n» The agent delegates an exploration of ${event.folder} to the ${event.agent} sub-agent (task tool): it runs as a session of its own`,
          );
          break;
        case "subagent":
          line(
            `  ⤷ sub-agent session ${event.report.sessionId ?? "(none)"}: ` +
              `${event.report.windows} window(s), ${event.report.rollovers} rollover(s) of its own, ` +
              `${event.report.filesRead} files read`,
          );
          break;
        case "question":
          line(`\n» ${event.text}`);
          break;
        case "answer":
          line(`Answer: ${event.text}\n`);
          break;
      }
    },
    finish(report) {
      clearBar();
      const check = (ok: boolean) => (ok ? "✓" : "✗");
      const lines = [
        "Report",
        `  windows            ${report.windows} (${report.rollovers.length} rollovers, ${report.warnings} warnings, ${report.notesWritten} notes written)`,
        `  rows stored        ${formatTokens(report.rows)} in ${report.database}`,
        `  files read         ${report.filesRead}, ` +
          `re-read after a rollover: ${report.filesReReadAfterRollover} ` +
          `(${report.notesFlushes} notes flushes before rollovers)`,
        `  tasks carried      ${report.carried.length} of ${report.rollovers.length} rollovers carried the task into the new window`,
        `  requests           ${report.requests}, ` +
          `the largest ${formatTokens(report.peakEstimatedTokens)} tokens by ctxwin's ` +
          `estimate, ${formatTokens(report.peakRequestTokens)} by the model's count ` +
          `(hard ceiling ${formatTokens(report.hardCeiling ?? 0)}, limit ${formatTokens(report.contextLimit)})`,
        `  recovered answer   ${check(report.recovered.correct)} ` +
          (report.recovered.firstFile === null
            ? "(no file was read)"
            : `line ${report.recovered.line} of ${report.recovered.firstFile}, through ${report.recoveries} session_history read(s)`),
        ...(report.subagent === undefined ? [] : [subagentLine(report.subagent, check)]),
        `  took               ${(report.durationMilliseconds / 1000).toFixed(1)} s · ` +
          `status ${report.status}${report.problem === undefined ? "" : ` (${report.problem})`}`,
        "",
        "Inspect the session:",
        ...report.inspect.map((command) => `  ${command}`),
        "",
        renderTimelineChart(report.timeline, { ascii: !wantsUnicode() }),
      ];
      output.write(`${lines.join("\n")}\n`);
    },
  };
}

function subagentLine(subagent: NonNullable<DemoReport["subagent"]>, check: (ok: boolean) => string): string {
  const looked =
    subagent.file === null
      ? "no file to ask about"
      : `line ${subagent.line} of ${subagent.file} quoted from its history${subagent.readChildHistory ? "" : " (its session was not read)"}`;
  return (
    `  sub-agent          ${check(subagent.correct)} ${subagent.agent} in ${subagent.sessionId ?? "(no session)"}: ` +
    `${subagent.windows} windows, ${subagent.rollovers} rollovers of its own, ${subagent.filesRead} files read; ${looked}`
  );
}

function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
