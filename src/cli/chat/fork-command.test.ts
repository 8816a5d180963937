import { describe, expect, it } from "vitest";
import { createAgentSession } from "../../session/create-agent-session.js";
import { scriptedModel } from "../../session/test-support/scripted-model.js";
import { deterministic, memoryStore } from "../../session/test-support/session-fixture.js";
import { createChatOutput } from "./chat-output.js";
import { parseSlashCommand, runSlashCommand } from "./slash-commands.js";

function recordingStreams() {
  const written = { stdout: "", stderr: "" };
  const stream = (name: "stdout" | "stderr") => ({
    isTTY: false,
    write: (chunk: string) => ((written[name] += chunk), true),
  });
  return { written, streams: { stdout: stream("stdout"), stderr: stream("stderr") } };
}

describe("/fork in ctxwin chat", () => {
  it("forks the chat's session at an item (default the last) and says how to continue it", async () => {
    const store = memoryStore();
    const { model } = scriptedModel({ script: [{ text: "first answer" }, { text: "second answer" }] });
    const session = createAgentSession({
      store,
      sessionId: "chat",
      model,
      budget: { contextLimit: 50_000 },
      ...deterministic(),
    });
    await session.send("first question");
    await session.send("second question");
    const { written, streams } = recordingStreams();
    const output = createChatOutput({ streams, env: { NO_COLOR: "1" } });
    const context = { session, store, memoryRoot: "/nonexistent", output };

    await runSlashCommand(parseSlashCommand("/fork 2")!, context);
    await runSlashCommand(parseSlashCommand("/fork")!, context);
    await runSlashCommand(parseSlashCommand("/fork 99")!, context);

    const forks = await store.sessions({ forkOfSessionId: "chat" });
    expect(forks.map((fork) => fork.forkOf?.atSeq).sort()).toEqual([2, 4]);
    expect(written.stdout).toMatch(
      /^Forked this session at #2 as chat-fork-\w{8}\. Continue it with `ctxwin chat --session chat-fork-\w{8}`/m,
    );
    expect(written.stderr).toMatch(/\/fork: Cannot fork 'chat' at item 99: its last item is 4\./);
    expect(await store.lastSeq("chat")).toBe(4);
  });
});
