/**
 * The sessions page obeys the privacy floor in a real browser (Debian's Chromium through
 * playwright-core), at 375×667 and 1900×1080 (ADR 0046): a cleared session is named by what was
 * said after its newest soft clear (or by its id), its search box never finds it by text from
 * before the clear — also an imported session — and a soft clear made in the UI renames the
 * session at once, in its heading and in the list.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createDemoModel } from "../../src/agent/demo/demo-model.js";
import type { RowInput } from "../../src/core/row.js";
import { resetBoundaryRow } from "../../src/core/rollover/notice-rows.js";
import { workspaceChat } from "../../src/server/server-chat.js";
import { startServer } from "../../src/server/start-server.js";
import { openStore } from "../../src/store/open-store.js";
import { browserFixture, openPage, VIEWPORTS, WEB_ROOT, type Viewport } from "./browser-fixture.js";
import { CHROMIUM_AVAILABLE, saveScreenshot } from "./browser-support.js";

/** Built by `npm run build` (the test run's global setup). */

const CLEARED = "cleared-session";
const CLEARED_EMPTY = "cleared-empty-session";
const IMPORTED = "claude-code:0a1b2c3d";
const userText = (text: string): RowInput => ({ role: "user", parts: [{ type: "text", text }] });
const assistantText = (text: string): RowInput => ({ role: "assistant", parts: [{ type: "text", text }] });

const importedHeader = (title: string): RowInput => ({
  role: "system",
  parts: [{ type: "text", text: `Imported claude-code session: ${title}` }],
  synthetic: true,
  uiVisible: false,
  meta: {
    type: "imported-session",
    source: "claude-code",
    sourceSessionId: "0a1b2c3d",
    title,
    project: "/home/dev/app",
    file: "/tmp/0a1b2c3d.jsonl",
  },
});

describe.skipIf(!CHROMIUM_AVAILABLE)("sessions page and the privacy floor in Chromium", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  const fixture = browserFixture("ctxwin-list-floor-", async (directory, onClose) => {
    const store = openStore({ directory });
    await store.append(CLEARED, [
      userText("Plan the marmalade launch"),
      assistantText("ok"),
      resetBoundaryRow({}),
      userText("After the clear: plum tart"),
    ]);
    await store.append(CLEARED_EMPTY, [userText("The quince password is hidden"), resetBoundaryRow({})]);
    await store.append(IMPORTED, [
      importedHeader("Tamarind import secret"),
      userText("Tamarind import secret"),
      resetBoundaryRow({}),
      assistantText("after the clear"),
    ]);
    for (const viewport of VIEWPORTS)
      await store.append(`live-${viewport.width}`, [userText("Walnut harvest plan"), assistantText("noted")]);
    await store.close();
    server = await startServer({
      directory,
      webRoot: WEB_ROOT,
      log: () => undefined,
      chat: workspaceChat({
        model: createDemoModel({ chunkDelayMilliseconds: 10 }),
        label: "demo",
        demo: true,
        workspaceRoot: directory,
        contextLimit: 16_000,
        logWarning: () => undefined,
      }),
    });
    onClose(() => server.close());
  });

  const open = (viewport: Viewport, hash: string) =>
    openPage(fixture.browser, { viewport, url: `${server.url}${hash}` });

  const searchBox = (page: Page) => page.getByLabel("Find a session by title or id");
  const entries = (page: Page) => page.locator("ul.sessions > li");

  /**
   * Types `query` into the search box and waits for the page's own answer to it and for the list
   * to show it; returns the listed titles. Waiting for the answer (not for text that may still be
   * on the page from the previous query) makes each query's check its own.
   */
  async function search(page: Page, query: string): Promise<string[]> {
    const answered = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname === "/api/sessions" && url.searchParams.get("q") === query;
    });
    await searchBox(page).fill(query);
    const body = (await (await answered).json()) as { sessions: { title: string }[] };
    const titles = body.sessions.map((session) => session.title);
    if (titles.length === 0) await page.getByText("No session matches.").waitFor();
    await expect
      .poll(async () => page.locator("ul.sessions .session-title").allTextContents(), { timeout: 10_000 })
      .toEqual(titles);
    return titles;
  }

  for (const viewport of VIEWPORTS) {
    describe(`at ${viewport.width}×${viewport.height}`, () => {
      it("names cleared sessions by what came after the clear, and the search box never finds text from before it", async () => {
        const { page, errors } = await open(viewport, "#/");
        await page.getByRole("link", { name: /After the clear: plum tart/ }).waitFor();
        const titles = await page.locator("ul.sessions .session-title").allTextContents();
        expect(titles).toEqual(expect.arrayContaining(["After the clear: plum tart", CLEARED_EMPTY, IMPORTED]));
        for (const word of ["marmalade", "quince", "tamarind"])
          expect((await page.locator("main").textContent())?.toLowerCase()).not.toContain(word);
        await saveScreenshot(page, `session-list-floor-${viewport.width}`);

        for (const query of ["marmalade", "quince", "Tamarind import", "password"])
          expect(await search(page, query), query).toEqual([]);
        expect(await search(page, "plum")).toEqual(["After the clear: plum tart"]);
        expect(await search(page, "claude-code:")).toEqual([IMPORTED]);
        expect(await entries(page).count()).toBe(1);
        await page.close();
        expect(errors).toEqual([]);
      });

      it("a soft clear in the UI renames the session at once, in its heading and in the list", async () => {
        const live = `live-${viewport.width}`;
        const { page, errors } = await open(viewport, "#/");
        expect(await search(page, live)).toEqual(["Walnut harvest plan"]);
        await page.getByRole("link", { name: /Walnut harvest plan/ }).click();
        await page.getByRole("heading", { name: "Walnut harvest plan" }).waitFor();
        await page.getByRole("button", { name: "Soft clear", exact: true }).click();
        await page.locator(".divider-reset").waitFor();
        await page.getByRole("heading", { name: live, exact: true }).waitFor();

        await page.goto(`${server.url}#/`);
        expect(await search(page, live)).toEqual([live]);
        // The other width's session may not be cleared yet: it may be found, this one must not.
        const found = await search(page, "walnut");
        expect(found.length).toBeLessThanOrEqual(1);
        expect(found.every((title) => title === "Walnut harvest plan")).toBe(true);
        await page.close();
        expect(errors).toEqual([]);
      });
    });
  }
});
