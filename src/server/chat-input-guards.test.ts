/**
 * What the web chat refuses before anything is stored (issue 46): a body nested deeper than the
 * row limit, and `file` parts that name a URL instead of carrying their data.
 */
import { describe, expect, it } from "vitest";
import { scriptedModel, type RecordedCall } from "../session/test-support/scripted-model.js";
import { readAllRows } from "../session/test-support/session-invariants.js";
import { createSession, postChatText } from "./test-support/chat-requests.js";
import { scriptedChat, startFixture, type ServerFixture } from "./test-support/server-fixture.js";

async function withChat(run: (fixture: ServerFixture, sessionId: string, calls: RecordedCall[]) => Promise<void>) {
  const { model, calls } = scriptedModel({ script: () => ({ text: "ok" }) });
  const fixture = await startFixture({ chat: () => scriptedChat({ model }) });
  try {
    await run(fixture, await createSession(fixture), calls);
  } finally {
    await fixture.close();
  }
}

describe("POST /api/sessions/:id/chat: input refused before anything is stored", () => {
  it("answers a body nested 100,000 levels deep inside providerMetadata with a 400 naming the limit", async () => {
    await withChat(async (fixture, sessionId, calls) => {
      const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
      const message = `{"id":"u1","role":"user","parts":[{"type":"text","text":"hi","providerMetadata":{"x":${deep}}}]}`;
      const response = await postChatText(fixture, sessionId, `{"messages":[${message}]}`);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("bad-request");
      expect(body.error.message).toMatch(/more than 512 levels deep; the limit is 512/);
      expect(await readAllRows(fixture.store, sessionId)).toEqual([]);
      expect(calls).toHaveLength(0);
      // Any other JSON body of the API too.
      const settings = await fixture.raw({
        method: "PUT",
        path: `/api/settings?token=${fixture.server.token}`,
        headers: { "Content-Type": "application/json" },
        body: `{"strategy":${deep}}`,
      });
      expect([settings.status, settings.text]).toEqual([400, expect.stringContaining("512 levels deep")]);
    });
  });

  const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
  const withFile = (id: string, file: Record<string, unknown>) => ({
    id,
    role: "user",
    parts: [
      { type: "text", text: "Look at this." },
      { type: "file", mediaType: "text/plain", ...file },
    ],
  });

  it.each([
    ["a file: URL", { url: "file:///etc/passwd" }, /is a URL, and URLs are never fetched/],
    ["an https: URL", { url: "https://127.0.0.1:9/secret.txt" }, /is a URL/],
    [
      "a media type not allowed",
      { url: "data:text/html;base64,PGI+", mediaType: "text/html" },
      /"text\/html" is not accepted/,
    ],
  ])(
    "refuses a file part with %s with a 400 before anything is stored; the next message is answered",
    async (_name, file, message) => {
      await withChat(async (fixture, sessionId, calls) => {
        const refused = await postChatText(fixture, sessionId, JSON.stringify({ messages: [withFile("u1", file)] }));
        expect(refused.status).toBe(400);
        expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(message);
        expect(await readAllRows(fixture.store, sessionId)).toEqual([]);
        expect(calls).toHaveLength(0);
        const next = await postChatText(
          fixture,
          sessionId,
          JSON.stringify({ messages: [{ id: "u2", role: "user", parts: [{ type: "text", text: "hello" }] }] }),
        );
        expect(next.status).toBe(200);
        expect(await next.text()).toContain('"delta":"ok"');
        expect(calls).toHaveLength(1);
      });
    },
  );

  it("takes a file part as a data: URL of an allowed type, and the model receives the file", async () => {
    await withChat(async (fixture, sessionId, calls) => {
      const response = await postChatText(
        fixture,
        sessionId,
        JSON.stringify({ messages: [withFile("u1", { mediaType: "image/png", url: `data:image/png;base64,${PNG}` })] }),
      );
      expect(response.status).toBe(200);
      await response.text();
      expect(calls[0]?.text).toContain("[file image/png]");
    });
  });
});
