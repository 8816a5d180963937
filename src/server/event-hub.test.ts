import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { openStore } from "../store/open-store.js";
import { createEventHub, type EventHub } from "./event-hub.js";

describe("createEventHub", () => {
  it("writes an event as its name and JSON data, to the subscribers of its session only", async () => {
    const store = openStore({ backend: "memory" });
    const hub = createEventHub({ store, pollIntervalMs: 60_000 });
    const server = createServer((request, response) => {
      hub.subscribe({ sessionId: (request.url ?? "/").slice(1), response, lastSeq: 0 });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/s1`);
      expect(answer.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      const reader = answer.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      const readUntil = async (end: string) => {
        while (!text.includes(end)) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`The stream ended before ${JSON.stringify(end)}: ${text}`);
          text += decoder.decode(value, { stream: true });
        }
      };
      await readUntil(": connected\n\n");
      hub.emit("s2", "text-delta", { delta: "another session's" });
      hub.emit("s1", "rollover", { windowId: "w:7", reason: "threshold", percent: 71 });
      await readUntil('"percent":71}\n\n');
      expect(text).toBe(
        'retry: 2000\n: connected\n\nevent: rollover\ndata: {"windowId":"w:7","reason":"threshold","percent":71}\n\n',
      );
      await reader.cancel();
    } finally {
      hub.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
    }
  });

  it("takes for each event only the data the API states for it (ServerEventMap, checked by tsc)", () => {
    const typed = (hub: EventHub) => {
      // @ts-expect-error a rollover names its window, reason and percent
      hub.emit("s1", "rollover", { windowId: "w:7" });
      // @ts-expect-error `rows` carries the new last seq, not a row
      hub.emit("s1", "rows", { seq: 3 });
      hub.emit("s1", "rows", { lastSeq: 3 });
    };
    expect(typed).toBeTypeOf("function");
  });
});
