/**
 * The web UI's search by meaning in Chromium (ADR 0063): with an embedding model on the server
 * (the offline synonym model) the Match choices include "words + meaning" and "meaning only", and
 * a hybrid search finds the row that answers a question in other words; a note says when rows
 * are not embedded yet. Without a model only exact text and ranked words are offered.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { RowInput } from "../../src/core/row.js";
import { startServer } from "../../src/server/start-server.js";
import { openStore } from "../../src/store/open-store.js";
import type { HistoryStore } from "../../src/store/port.js";
import { createSynonymEmbeddingModel } from "../../src/store/test-support/synonym-embedding-model.js";
import { browserFixture, openPage, WEB_ROOT } from "./browser-fixture.js";
import { CHROMIUM_AVAILABLE, saveScreenshot } from "./browser-support.js";

/** Built by `npm run build` (the test run's global setup). */
const userText = (text: string): RowInput => ({ role: "user", parts: [{ type: "text", text }] });
const assistantText = (text: string): RowInput => ({ role: "assistant", parts: [{ type: "text", text }] });
const ROWS = [
  userText("Which identity approach should we use?"),
  assistantText("We'll keep OAuth with PKCE for sign-in."),
  userText("And the colours of the report page?"),
];

describe.skipIf(!CHROMIUM_AVAILABLE)("search by meaning in Chromium", () => {
  const fixture = browserFixture("ctxwin-hybrid-ui-");

  /** Serves `store` from a directory of its own; both close after the file. */
  async function serve(store: HistoryStore) {
    const directory = fs.mkdtempSync(path.join(fixture.directory, "served-"));
    const server = await startServer({ directory, store, webRoot: WEB_ROOT, log: () => undefined });
    fixture.onClose(() => store.close());
    fixture.onClose(() => server.close());
    return server;
  }

  async function openSearch(url: string): Promise<Page> {
    const { page } = await openPage(fixture.browser, {
      viewport: { width: 1280, height: 800 },
      url: `${url}#/session/s`,
    });
    const tab = page.getByRole("button", { name: "Search", exact: true });
    await tab.waitFor();
    if ((await tab.getAttribute("aria-pressed")) !== "true") await tab.click();
    await page.getByLabel("Search this session's history").waitFor();
    return page;
  }

  it("offers words + meaning with an embedding model and finds the answer by meaning", async () => {
    const store = openStore({
      backend: "memory",
      embeddings: { model: createSynonymEmbeddingModel(), onWarning: () => undefined },
    });
    await store.append("s", ROWS);
    await store.embeddings?.idle();
    const server = await serve(store);
    const page = await openSearch(server.url);
    await page.getByLabel("words + meaning").check();
    await page.getByLabel("Search this session's history").fill("login decision");
    await page.keyboard.press("Enter");
    const hit = page.locator(".hit").first();
    await hit.waitFor();
    expect(await hit.textContent()).toContain("OAuth with PKCE");
    expect(await page.locator(".embeddings-note").count()).toBe(0);
    await page.getByLabel("meaning only").check();
    await page.getByRole("button", { name: "Search", exact: true }).last().click();
    await expect.poll(async () => page.locator(".hit").first().textContent()).toContain("OAuth with PKCE");
    await saveScreenshot(page, "hybrid-search");
    await page.close();
  });

  it("says when rows are not embedded yet", async () => {
    const model = createSynonymEmbeddingModel({
      fault: (_call, values) => {
        if (values.length === 1 && values[0] === "login decision") return undefined;
        throw new Error("provider down");
      },
    });
    const store = openStore({
      backend: "memory",
      embeddings: { model, onWarning: () => undefined, retryDelaysMs: [] },
    });
    await store.append("s", ROWS);
    await store.embeddings?.idle();
    const server = await serve(store);
    const page = await openSearch(server.url);
    await page.getByLabel("words + meaning").check();
    await page.getByLabel("Search this session's history").fill("login decision");
    await page.keyboard.press("Enter");
    await expect.poll(async () => page.locator(".embeddings-note").textContent()).toContain("not embedded yet");
    await page.close();
  });

  it("offers only exact text and ranked words without a model", async () => {
    const store = openStore({ backend: "memory" });
    await store.append("s", ROWS);
    const server = await serve(store);
    const page = await openSearch(server.url);
    await page.getByLabel("ranked words").waitFor();
    expect(await page.getByLabel("words + meaning").count()).toBe(0);
    expect(await page.getByLabel("meaning only").count()).toBe(0);
    await page.close();
  });
});
