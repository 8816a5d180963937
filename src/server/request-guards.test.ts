import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowedHostHeaders, isLoopbackHost } from "./request-guards.js";
import { startFixture, type ServerFixture } from "./test-support/server-fixture.js";

describe("request guards of ctxwin serve (ADR 0012)", () => {
  let fixture: ServerFixture;
  const auth = () => ({ Authorization: `Bearer ${fixture.server.token}` });

  beforeAll(async () => {
    fixture = await startFixture({
      seed: async (store) =>
        void (await store.append("s1", [{ role: "user", parts: [{ type: "text", text: "hello" }] }])),
    });
  });
  afterAll(() => fixture.close());

  it("binds to loopback with a long random token printed in the URL", () => {
    expect(fixture.server.host).toBe("127.0.0.1");
    expect(fixture.server.loopback).toBe(true);
    expect(fixture.server.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(fixture.server.url).toBe(`http://127.0.0.1:${fixture.server.port}/?token=${fixture.server.token}`);
  });

  it("refuses API calls without the token or with a wrong one (401, JSON)", async () => {
    const missing = await fixture.raw({ path: "/api/sessions" });
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.text)).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
    expect((await fixture.raw({ path: "/api/sessions", headers: { Authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await fixture.raw({ path: `/api/sessions?token=${fixture.server.token}x` })).status).toBe(401);
    expect((await fixture.raw({ path: "/api/sessions/s1/events" })).status).toBe(401);
    expect((await fixture.raw({ path: "/api/nothing" })).status).toBe(401);
  });

  it("accepts the token as a Bearer header or as ?token=", async () => {
    expect((await fixture.raw({ path: "/api/sessions", headers: auth() })).status).toBe(200);
    expect(
      (await fixture.raw({ path: `/api/sessions?token=${encodeURIComponent(fixture.server.token)}` })).status,
    ).toBe(200);
  });

  it("refuses a foreign Origin (403) and sends no CORS headers", async () => {
    const foreign = await fixture.raw({ path: "/api/sessions", headers: { ...auth(), Origin: "http://evil.example" } });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.text).error.code).toBe("forbidden");
    expect((await fixture.raw({ path: "/api/sessions", headers: { ...auth(), Origin: "null" } })).status).toBe(403);
    expect(
      (
        await fixture.raw({
          method: "POST",
          path: "/api/sessions/s1/clear",
          headers: { ...auth(), Origin: `http://localhost:${fixture.server.port + 1}` },
        })
      ).status,
    ).toBe(403);
    const own = await fixture.raw({
      path: "/api/sessions",
      headers: { ...auth(), Origin: `http://127.0.0.1:${fixture.server.port}` },
    });
    expect(own.status).toBe(200);
    expect(Object.keys(own.headers).filter((name) => name.startsWith("access-control-"))).toEqual([]);
    const preflight = await fixture.raw({
      method: "OPTIONS",
      path: "/api/sessions",
      headers: { Origin: "http://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(403);
    expect(Object.keys(preflight.headers).filter((name) => name.startsWith("access-control-"))).toEqual([]);
  });

  it("refuses a Host header that does not name this server (DNS rebinding), even with the token", async () => {
    for (const host of [
      "evil.example",
      `evil.example:${fixture.server.port}`,
      `127.0.0.1:${fixture.server.port + 1}`,
      `127.0.0.1`,
    ]) {
      const response = await fixture.raw({ path: "/api/sessions", headers: { ...auth(), Host: host } });
      expect(response.status, host).toBe(403);
    }
    expect((await fixture.raw({ path: "/", headers: { Host: "evil.example" } })).status).toBe(403);
    for (const host of [`localhost:${fixture.server.port}`, `127.0.0.1:${fixture.server.port}`]) {
      expect((await fixture.raw({ path: "/api/sessions", headers: { ...auth(), Host: host } })).status, host).toBe(200);
    }
  });

  it("refuses a body over 1 MB with 413, and a non-JSON body with 415", async () => {
    const huge = await fixture.raw({
      method: "POST",
      path: "/api/sessions/s1/messages",
      headers: { ...auth(), "Content-Type": "application/json" },
      body: JSON.stringify({ text: "x".repeat(1024 * 1024 + 10) }),
    });
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.text).error.code).toBe("payload-too-large");
    const putSettings = (contentType: string, body: string) =>
      fixture.raw({ method: "PUT", path: "/api/settings", headers: { ...auth(), "Content-Type": contentType }, body });
    expect((await putSettings("text/plain", '{"threshold":0.5}')).status).toBe(415);
    expect((await putSettings("application/json", "{")).status).toBe(400);
  });

  it("refuses a chunked body that grows past 1 MB without a Content-Length", async () => {
    const response = await new Promise<number>((resolve, reject) => {
      import("node:http").then(({ request }) => {
        const outgoing = request(
          {
            host: "127.0.0.1",
            port: fixture.server.port,
            method: "PUT",
            path: "/api/settings",
            headers: {
              ...auth(),
              Host: `127.0.0.1:${fixture.server.port}`,
              "Content-Type": "application/json",
              "Transfer-Encoding": "chunked",
            },
          },
          (incoming) => {
            incoming.resume();
            resolve(incoming.statusCode ?? 0);
          },
        );
        outgoing.on("error", reject);
        const chunk = "x".repeat(64 * 1024);
        for (let index = 0; index < 20; index += 1) outgoing.write(chunk);
        outgoing.end();
      }, reject);
    });
    expect(response).toBe(413);
  });

  it("never answers a stack trace: an internal failure is a generic 500", async () => {
    const broken = await startFixture({
      seed: async (store) => void (await store.append("s1", [{ role: "user", parts: [{ type: "text", text: "x" }] }])),
    });
    try {
      await broken.store.close();
      const response = await broken.api("/api/sessions");
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ error: { code: "internal", message: expect.any(String) } });
      expect(JSON.stringify(response.body)).not.toMatch(/at .*\.(ts|js):\d+/);
      expect(response.body.error.message).not.toMatch(/closed/i);
    } finally {
      await broken.close();
    }
  });
});

describe("allowedHostHeaders", () => {
  it("accepts the loopback names on a loopback bind, only the bound name otherwise", () => {
    expect(allowedHostHeaders({ host: "127.0.0.1", port: 8080 })).toEqual(
      new Set(["127.0.0.1:8080", "localhost:8080", "[::1]:8080"]),
    );
    expect(allowedHostHeaders({ host: "192.168.1.20", port: 80 })).toEqual(new Set(["192.168.1.20:80"]));
    expect(allowedHostHeaders({ host: "::1", port: 9 }).has("[::1]:9")).toBe(true);
    expect(isLoopbackHost("127.0.0.1")).toBe(true);
    expect(isLoopbackHost("0.0.0.0")).toBe(false);
  });
});
