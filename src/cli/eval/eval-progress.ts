/**
 * Progress of `ctxwin eval` on stderr: a bar with items done, tokens and cost so far on a
 * terminal; one line per finished item otherwise (logs, CI, tests).
 */
import cliProgress from "cli-progress";
import type { ItemResult } from "../../eval/eval-types.js";

export interface EvalProgress {
  update(result: ItemResult): void;
  stop(): void;
}

const tokens = (value: number) => value.toLocaleString("en-US");

/**
 * @example const progress = createEvalProgress({ total: runs.length, stream: process.stderr }); progress.update(result);
 */
export function createEvalProgress({ total, stream }: { total: number; stream: NodeJS.WriteStream }): EvalProgress {
  let done = 0;
  let usedTokens = 0;
  let cost: number | undefined = 0;
  const payload = () => ({
    tokens: tokens(usedTokens),
    cost: cost === undefined ? "cost unknown" : `$${cost.toFixed(4)}`,
  });
  const bar =
    stream.isTTY === true
      ? new cliProgress.SingleBar(
          { stream, format: "{bar} {value}/{total} runs | {tokens} tokens | {cost}", hideCursor: true },
          cliProgress.Presets.shades_classic,
        )
      : undefined;
  bar?.start(total, 0, payload());
  return {
    update(result) {
      done += 1;
      usedTokens += result.inputTokens + result.outputTokens;
      cost = cost === undefined || result.costUsd === undefined ? undefined : cost + result.costUsd;
      if (bar !== undefined) {
        bar.update(done, payload());
        return;
      }
      const outcome =
        result.status === "failed"
          ? `failed: ${result.error ?? ""}`
          : `${result.status} ${(result.score * 100).toFixed(0)}%`;
      stream.write(
        `[${done}/${total}] ${result.suite} ${result.itemId} ${result.strategy}: ${outcome} (${tokens(usedTokens)} tokens so far)\n`,
      );
    },
    stop() {
      bar?.stop();
    },
  };
}
