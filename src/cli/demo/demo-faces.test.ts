/**
 * One engine, two faces (issue 29, ADR 0058): the demo's task run through `createContextAgent`,
 * driven as a `useChat` client drives a route (the whole chat with every call, the answer read
 * from the UI message stream), gives the same report as through `createAgentSession`: the same
 * windows, rollovers, warnings, notes, carried tasks, no re-reads, and the same recovery.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { scratchFolders } from "../../../test/scratch-folders.js";
import { runDemo, type DemoReport } from "./run-demo.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const scratch = scratchFolders("ctxwin-demo-faces-");

vi.setConfig({ testTimeout: 180_000 });

/** The demo with its defaults (this package, 16,000 tokens, 32 files) on one face, in a fresh project directory. */
async function demoOn(face: "session" | "agent"): Promise<DemoReport> {
  return runDemo({
    directory: scratch(),
    folder: repositoryRoot,
    contextLimit: 16_000,
    files: 32,
    sessionId: "demo-faces",
    face,
  });
}

const clockKeys = new Set(["at", "startedAt", "endedAt", "createdAt"]);

/** What a run reports apart from where, when and how long it ran (the store stamps rows with the real clock). */
function outcome({
  database: _database,
  inspect: _inspect,
  durationMilliseconds: _duration,
  ...report
}: DemoReport): unknown {
  return JSON.parse(JSON.stringify(report, (key, value: unknown) => (clockKeys.has(key) ? undefined : value)));
}

describe("the demo on both faces", () => {
  it("createContextAgent gives the same report as createAgentSession", async () => {
    const session = await demoOn("session");
    const agent = await demoOn("agent");

    expect(session.status).toBe("completed");
    expect(session.rollovers.length).toBeGreaterThanOrEqual(3);
    expect(session.filesReReadAfterRollover).toBe(0);
    expect(session.recovered.correct).toBe(true);
    expect(session.recoveries).toBeGreaterThanOrEqual(1);

    expect(agent.windows).toBe(session.windows);
    expect(agent.rollovers).toEqual(session.rollovers);
    expect(agent.filesReReadAfterRollover).toBe(0);
    expect(agent.recovered).toEqual(session.recovered);
    expect(outcome(agent)).toEqual(outcome(session));
  });
});
