/**
 * Parent side of `concurrent-editor.ts`: spawns it as a real child process (`spawnTestWorker`,
 * plain node on a bundle built before the tests) and exposes its stdout lines.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { spawnTestWorker } from "../../../../test/test-workers.js";
import type { EditorConfig, EditorReport } from "./concurrent-editor.js";

const editorSource = new URL("./concurrent-editor.ts", import.meta.url);

export interface EditorProcess {
  child: ChildProcessWithoutNullStreams;
  waitForLine: (prefix: string) => Promise<string>;
  go: () => void;
  report: () => Promise<EditorReport>;
  /** SIGKILL, resolved once the process has exited (and been reaped). */
  kill: () => Promise<void>;
  exited: Promise<number | null>;
}

export function startEditor(config: EditorConfig): EditorProcess {
  const child = spawnTestWorker({ source: editorSource, args: [JSON.stringify(config)] });
  const lines: string[] = [];
  const waiters: Array<{ prefix: string; resolve: (line: string) => void }> = [];
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.on("error", () => {
    // A killed child closes its stdin; the exit is reported through `exited`.
  });
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (!line.startsWith(waiter.prefix)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      for (const waiter of waiters.splice(0)) waiter.resolve(`exited ${String(code)}: ${stderr}`);
      resolve(code);
    });
  });
  const waitForLine = (prefix: string) =>
    new Promise<string>((resolve) => {
      const seen = lines.find((line) => line.startsWith(prefix));
      if (seen !== undefined) resolve(seen);
      else waiters.push({ prefix, resolve });
    });
  return {
    child,
    waitForLine,
    go: () => child.stdin.write("go\n"),
    report: async () => {
      const line = await waitForLine("result ");
      if (!line.startsWith("result ")) throw new Error(`editor ${config.name} failed: ${line}`);
      return JSON.parse(line.slice("result ".length)) as EditorReport;
    },
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
    },
    exited,
  };
}
