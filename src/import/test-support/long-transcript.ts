/**
 * A long Claude Code session as a transcript file, for the hook bench and the import deadline tests: `lines` lines (prompt,
 * tool call, tool result, answer, repeated) averaging about 550 bytes, so 60,000 lines are about
 * 33 MB — the size of the transcript that took the hook past Claude Code's 10 s timeout (issue 47).
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";

/**
 * @example await writeLongTranscript({ file: "/tmp/s.jsonl", sessionId, lines: 60_000 });
 */
export async function writeLongTranscript({
  file,
  sessionId,
  lines,
}: {
  file: string;
  sessionId: string;
  lines: number;
}): Promise<number> {
  const output = createWriteStream(file);
  let parent: string | null = null;
  let written = 0;
  let bytes = 0;
  const write = async (type: string, message: Record<string, unknown>) => {
    const uuid = `${sessionId.slice(0, 24)}${String(written).padStart(12, "0")}`;
    const time = new Date(Date.UTC(2026, 10, 1) + written * 1000).toISOString();
    const text = `${JSON.stringify({ parentUuid: parent, isSidechain: false, cwd: "/home/dev/shop-api", sessionId, type, uuid, timestamp: time, message })}\n`;
    parent = uuid;
    written += 1;
    bytes += Buffer.byteLength(text);
    if (!output.write(text)) await once(output, "drain");
  };
  for (let turn = 0; written < lines; turn += 1) {
    const call = `toolu_${String(turn).padStart(8, "0")}`;
    const words = `step ${turn} of the migration touches orders_${turn % 97} and invoices_${turn % 89}; `;
    await write("user", { role: "user", content: `Turn ${turn}: ${words.repeat(3)}what does the next file say?` });
    if (written >= lines) break;
    await write("assistant", {
      role: "assistant",
      content: [
        { type: "tool_use", id: call, name: "Read", input: { file_path: `/home/dev/shop-api/src/m${turn}.ts` } },
      ],
    });
    if (written >= lines) break;
    await write("user", {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: call, content: `export const step${turn} = "${words.repeat(6)}";\n` },
      ],
    });
    if (written >= lines) break;
    await write("assistant", {
      role: "assistant",
      content: [{ type: "text", text: `File m${turn}.ts: ${words.repeat(2)}` }],
    });
  }
  output.end();
  await once(output, "finish");
  return bytes;
}
