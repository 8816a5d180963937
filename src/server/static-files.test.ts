import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MISSING_BUILD_TEXT, safeRelativePath } from "./static-files.js";
import { startFixture, type ServerFixture } from "./test-support/server-fixture.js";

describe("static front end", () => {
  let fixture: ServerFixture;
  let outside: string;

  beforeAll(async () => {
    outside = mkdtempSync(path.join(tmpdir(), "ctxwin-outside-"));
    writeFileSync(path.join(outside, "secret.txt"), "top secret");
    const webRoot = mkdtempSync(path.join(tmpdir(), "ctxwin-web-"));
    mkdirSync(path.join(webRoot, "assets"));
    writeFileSync(
      path.join(webRoot, "index.html"),
      '<!doctype html><script type="module" src="./assets/app.js"></script>',
    );
    writeFileSync(path.join(webRoot, "assets", "app.js"), "console.log('app');");
    writeFileSync(path.join(webRoot, "assets", "app.css"), "body{}");
    symlinkSync(path.join(outside, "secret.txt"), path.join(webRoot, "assets", "link.txt"));
    fixture = await startFixture({ options: { webRoot } });
  });
  afterAll(async () => {
    await fixture.close();
    rmSync(outside, { recursive: true, force: true });
  });

  it("serves index.html for / without a token, with the CSP and nosniff", async () => {
    const response = await fixture.raw({ path: "/" });
    expect(response.status).toBe(200);
    expect(response.text).toContain("<!doctype html>");
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(response.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(response.headers["content-security-policy"]).not.toContain("unsafe-inline");
  });

  it("serves assets with their content types", async () => {
    const script = await fixture.raw({ path: "/assets/app.js" });
    expect(script).toMatchObject({ status: 200, text: "console.log('app');" });
    expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect((await fixture.raw({ path: "/assets/app.css" })).headers["content-type"]).toBe("text/css; charset=utf-8");
    const head = await fixture.raw({ method: "HEAD", path: "/assets/app.js" });
    expect(head).toMatchObject({ status: 200, text: "" });
  });

  it("answers 404 for files that are not there (the UI routes in the URL's hash)", async () => {
    expect((await fixture.raw({ path: "/sessions/s1" })).status).toBe(404);
    expect((await fixture.raw({ path: "/assets/missing.js" })).status).toBe(404);
    expect((await fixture.raw({ path: "/favicon.ico" })).status).toBe(404);
  });

  it("refuses traversal attempts: .., encoded .., backslashes, NUL, dotfiles, symlinks out", async () => {
    for (const attempt of [
      "/../secret.txt",
      "/%2e%2e/%2e%2e/etc/passwd",
      "/assets/..%2f..%2fetc%2fpasswd",
      "/assets%5c..%5c..%5cetc%5cpasswd",
      "/index.html%00.js",
      "/.env",
      "/assets/link.txt",
      "/%E0%A4%A",
    ]) {
      const response = await fixture.raw({ path: attempt });
      expect(response.status, attempt).toBe(404);
      expect(response.text, attempt).not.toContain("top secret");
      expect(response.text, attempt).not.toContain("root:");
    }
  });

  it("refuses other methods on static paths", async () => {
    expect((await fixture.raw({ method: "POST", path: "/" })).status).toBe(405);
  });
});

describe("static front end without a build", () => {
  it("answers / with a short text saying to run npm run build", async () => {
    const fixture = await startFixture();
    try {
      const response = await fixture.raw({ path: "/" });
      expect(response).toMatchObject({ status: 200, text: MISSING_BUILD_TEXT });
      expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect((await fixture.raw({ path: "/assets/app.js" })).status).toBe(404);
    } finally {
      await fixture.close();
    }
  });
});

describe("safeRelativePath", () => {
  it("maps / to index.html and keeps plain paths", () => {
    expect(safeRelativePath("/")).toBe("index.html");
    expect(safeRelativePath("/assets/app.js")).toBe("assets/app.js");
    expect(() => safeRelativePath("/a/../b")).toThrow();
  });
});
