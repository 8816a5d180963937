/**
 * The web UI in a real browser (Debian's Chromium through playwright-core) against the real server
 * with the built-in demo model, at a phone width (375×667) and a desktop width (1900×1080): a
 * fixture session's dividers, budget bar, tool calls, inert markup, search, windows, rejected input,
 * and a chat turn that moves the budget bar. Screenshots go to test-artifacts/.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createDemoModel } from "../../src/agent/demo/demo-model.js";
import { workspaceChat } from "../../src/server/server-chat.js";
import { startServer } from "../../src/server/start-server.js";
import { browserFixture, openPage, VIEWPORTS, WEB_ROOT, type Viewport } from "./browser-fixture.js";
import {
  CHROMIUM_AVAILABLE,
  CHROMIUM_PATH,
  REQUIRE_CHROMIUM,
  horizontalOverflow,
  saveScreenshot,
} from "./browser-support.js";
import {
  COMPACTION_SUMMARY,
  FIXTURE_SESSION,
  LONG_SESSION,
  LONG_SESSION_ROWS,
  REJECTED_MARKER,
  SEARCH_WORD,
  writeFixtureSession,
} from "./fixture-session.js";

const WIDE = "(min-width: 900px)";
/** Built by `npm run build` (the test run's global setup). */

describe("Chromium for the browser tests", () => {
  it.runIf(REQUIRE_CHROMIUM)(`is installed at ${CHROMIUM_PATH} in CI`, () => {
    expect(
      CHROMIUM_AVAILABLE,
      `${CHROMIUM_PATH} is missing: .ci/run installs it with apt-get install -y chromium`,
    ).toBe(true);
  });
});

describe.skipIf(!CHROMIUM_AVAILABLE)("web UI in Chromium", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  const fixture = browserFixture("ctxwin-web-ui-", async (directory, onClose) => {
    writeWorkspace(directory);
    await writeFixtureSession({ directory });
    server = await startServer({
      directory,
      webRoot: WEB_ROOT,
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

  const pageErrors = new WeakMap<Page, string[]>();

  async function open(viewport: Viewport, hash: string): Promise<Page> {
    const { page, errors } = await openPage(fixture.browser, { viewport, url: `${server.url}${hash}` });
    pageErrors.set(page, errors);
    return page;
  }

  /** Closes the page; no script error may have happened on it. */
  async function close(page: Page): Promise<void> {
    await page.close();
    expect(pageErrors.get(page)).toEqual([]);
  }

  /** Opens a side panel tab (on a phone the panel starts closed, on a desktop with Windows open). */
  async function showPanel(page: Page, label: "Windows" | "Search" | "Settings"): Promise<void> {
    const tab = page.getByRole("button", { name: label, exact: true });
    if ((await tab.getAttribute("aria-pressed")) !== "true") await tab.click();
  }

  async function expectNoHorizontalOverflow(page: Page): Promise<void> {
    const { scrollWidth, clientWidth } = await horizontalOverflow(page);
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  }

  it("without the access token says where to find it and loads no data", async () => {
    const page = await fixture.browser.newPage();
    const apiCalls: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/")) apiCalls.push(request.url());
    });
    await page.goto(`${server.origin}/#/`);
    expect(await page.getByRole("alert").textContent()).toMatch(/No access token/);
    expect(apiCalls).toEqual([]);
    await page.close();
  });

  /** The element was scrolled into the transcript's visible area (a jump landed on it). */
  async function expectInsideTranscript(page: Page, element: ReturnType<Page["locator"]>): Promise<void> {
    await expect
      .poll(
        async () => {
          const [box, area] = await Promise.all([element.boundingBox(), page.locator(".transcript").boundingBox()]);
          return box !== null && area !== null && box.y >= area.y - 1 && box.y < area.y + area.height;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
  }

  for (const viewport of VIEWPORTS) {
    describe(`at ${viewport.width}×${viewport.height}`, () => {
      it("lists sessions newest first with a search, and opens one", async () => {
        const page = await open(viewport, "#/");
        expect(new URL(page.url()).searchParams.get("token")).toBeNull();
        // The fixture session was soft-cleared: it is named by its first message after the clear (ADR 0046).
        await page.getByRole("link", { name: /After the soft clear: read again/ }).waitFor();
        await page.getByLabel("Find a session by title or id").fill("no such session at all");
        await page.getByText("No session matches.").waitFor();
        await page.getByLabel("Find a session by title or id").fill("FIXTURE");
        await page.getByRole("link", { name: /After the soft clear: read again/ }).click();
        await page.getByRole("heading", { name: /After the soft clear: read again/ }).waitFor();
        expect(new URL(page.url()).hash).toBe(`#/session/${FIXTURE_SESSION}`);
        await close(page);
      });

      it("shows dividers, the budget bar, collapsed tool calls and warnings, and markup as inert text", async () => {
        const page = await open(viewport, `#/session/${FIXTURE_SESSION}`);
        const rollover = page.locator(".divider-rollover").first();
        await rollover.waitFor();
        expect(await rollover.getAttribute("aria-label")).toMatch(
          /^Context window \d+ — rolled over at \d+% · [a-z-]+$/,
        );
        expect(await page.locator(".divider-reset").count()).toBe(1);
        expect(await page.locator(".divider-reset").textContent()).toMatch(/cleared by you/);
        const compaction = page.locator(".divider-compaction");
        expect(await compaction.getAttribute("aria-label")).toMatch(/^Context window \d+ — compacted into a summary/);
        await compaction.getByRole("button", { name: "Show the summary" }).click();
        expect(await compaction.textContent()).toContain(COMPACTION_SUMMARY);

        const countdown = await page.getByTestId("budget-countdown").textContent();
        expect(countdown).toMatch(/rolls over in ~[\d,]+ tokens|over the threshold|automatic rollover is off/);
        expect(await page.getByRole("meter").count()).toBe(1);
        expect(await page.locator(".budget-threshold").count()).toBe(1);

        const warning = page.locator(".row-warning").first();
        await warning.scrollIntoViewIfNeeded();
        expect(await warning.locator("button").getAttribute("aria-expanded")).toBe("false");

        const toggle = page.locator(".tool-call-toggle").first();
        await toggle.scrollIntoViewIfNeeded();
        expect(await toggle.textContent()).toMatch(/read_file src\/part-\d+\.ts/);
        expect(await toggle.getAttribute("aria-expanded")).toBe("false");
        await toggle.focus();
        await page.keyboard.press("Enter");
        expect(await toggle.getAttribute("aria-expanded")).toBe("true");
        const output = page.locator(".tool-output").first();
        expect(await output.textContent()).toContain("// src/part-");

        const hostile = page.locator(".row", { hasText: "window.__pwned=1" }).first();
        await hostile.scrollIntoViewIfNeeded();
        expect(await hostile.textContent()).toContain("<script>window.__pwned=1</script><img src=x onerror=");
        expect(await page.evaluate("typeof window.__pwned")).toBe("undefined");
        expect(await page.evaluate("document.querySelectorAll('#root img, #root script, #root b').length")).toBe(0);

        const hiddenBefore = await page.locator(".row-hidden").count();
        expect(hiddenBefore).toBe(0);
        await page.getByLabel("Show internal rows").check();
        await page.locator(".row-hidden").first().waitFor();
        // A continue row that carried a stopped turn says what it carried, call by call.
        const continuation = page
          .locator(".collapsed-toggle", { hasText: "Continuation — carries the stopped turn" })
          .first();
        await continuation.scrollIntoViewIfNeeded();
        expect(await continuation.textContent()).toMatch(/its input \(item \d+\) and \d+ tool calls \(\d+ finished\)/);
        await continuation.click();
        expect(await page.locator(".carry-call").first().textContent()).toMatch(
          /^read_file \{"path":"src\/part-\d+\.ts"\} — finished \(item \d+\)$/,
        );

        await expectNoHorizontalOverflow(page);
        await rollover.scrollIntoViewIfNeeded();
        await saveScreenshot(page, `web-ui-${viewport.width}-session`);
        await close(page);
      });

      it("searches the history and jumps to a hit; the windows panel jumps to a window", async () => {
        const page = await open(viewport, `#/session/${FIXTURE_SESSION}`);
        await page.locator(".divider-rollover").first().waitFor();
        await showPanel(page, "Search");
        await page.getByLabel("Search this session's history").fill(SEARCH_WORD);
        await page.keyboard.press("Enter");
        const hit = page.locator(".hit").first();
        await hit.waitFor();
        expect(await hit.textContent()).toContain(SEARCH_WORD);
        await hit.focus();
        await page.keyboard.press("Enter");
        const highlighted = page.locator(".row-highlighted");
        await highlighted.waitFor();
        expect(await highlighted.textContent()).toContain(SEARCH_WORD);
        await expectInsideTranscript(page, highlighted);

        await page.getByLabel("ranked words").check();
        await page.getByRole("button", { name: "Search", exact: true }).last().click();
        await page.locator(".hit").first().waitFor();
        // Narrowed to the user's own messages, the assistant's word of the day is not found.
        await page.getByLabel("newest first").check();
        await page.getByLabel("From").selectOption("user");
        await page.getByRole("button", { name: "Search", exact: true }).last().click();
        await page.getByText("No matches.").waitFor();
        await page.getByLabel("From").selectOption("assistant");
        await page.getByRole("button", { name: "Search", exact: true }).last().click();
        await page.locator(".hit").first().waitFor();
        expect(await page.locator(".hit-where").first().textContent()).toContain("assistant");

        await showPanel(page, "Windows");
        const first = page
          .locator(".window-entry")
          .filter({ has: page.locator(".window-title", { hasText: /^Window 1$/ }) });
        expect(await page.locator(".window-entry").count()).toBeGreaterThanOrEqual(3);
        await first.click();
        await page.getByText("Start of the session").waitFor();
        await expectInsideTranscript(page, page.locator(".rows > li").first());
        await expectNoHorizontalOverflow(page);
        await close(page);
      });

      it("opens a long session on its newest page and loads earlier pages when scrolling up", async () => {
        const page = await open(viewport, `#/session/${LONG_SESSION}`);
        await page.getByText(`Long session message ${LONG_SESSION_ROWS}.`, { exact: true }).waitFor();
        const firstPage = await page.locator(".rows > li").count();
        expect(firstPage).toBeLessThanOrEqual(100);
        expect(await page.getByText("Start of the session").count()).toBe(0);
        await page.locator(".transcript").hover();
        await page.mouse.wheel(0, -50_000);
        const rows = () => page.locator(".rows > li").count();
        await expect.poll(rows, { timeout: 30_000 }).toBeGreaterThan(firstPage);
        const afterScroll = await rows();
        await page.getByRole("button", { name: "Load earlier rows" }).click();
        await expect.poll(rows, { timeout: 30_000 }).toBeGreaterThan(afterScroll);
        await expectNoHorizontalOverflow(page);
        await close(page);
      });

      it("marks input that was not sent and offers it for editing, never for a retry as-is", async () => {
        const page = await open(viewport, `#/session/${FIXTURE_SESSION}`);
        const rejected = page.locator(".row-rejected-input");
        await rejected.waitFor();
        expect(await rejected.textContent()).toContain("Not sent");
        // Why (the stored reason), and no cut note: this input fit the row limit, only not the window.
        expect(await rejected.locator(".rejected-reason").textContent()).toMatch(/ceiling|fit/i);
        expect(await rejected.locator(".rejected-cut").count()).toBe(0);
        expect(await rejected.getByRole("button", { name: /retry|resend/i }).count()).toBe(0);
        await rejected.getByRole("button", { name: "Edit in the chat box" }).click();
        const box = page.getByLabel("Message to the agent");
        expect((await box.inputValue()).startsWith(REJECTED_MARKER)).toBe(true);
        await close(page);
      });

      it("sends a message to the demo model, streams the answer, and the budget bar moves", async () => {
        const page = await open(viewport, "#/");
        await page.getByRole("button", { name: "New session" }).click();
        await page.getByLabel("Message to the agent").waitFor();
        const meter = page.getByRole("meter");
        await meter.waitFor();
        const before = Number(await meter.getAttribute("aria-valuenow"));
        await page
          .getByLabel("Message to the agent")
          .fill('Explore the folder "project": list its files, then read up to 3 of them one by one.');
        await page.getByRole("button", { name: "Send", exact: true }).click();
        await page.locator(".live-answer").waitFor({ state: "attached", timeout: 30_000 });
        await page.locator(".tool-call-toggle", { hasText: "read_file" }).first().waitFor({ timeout: 30_000 });
        await page
          .locator(".row.role-assistant", { hasText: /I read \d+ files\. What each one is for/ })
          .waitFor({ timeout: 30_000 });
        await expect
          .poll(async () => Number(await meter.getAttribute("aria-valuenow")), { timeout: 30_000 })
          .toBeGreaterThan(before);
        await page.getByRole("button", { name: "Send", exact: true }).waitFor();
        await page.getByLabel("Message to the agent").fill("/clear --soft");
        await page.getByLabel("Message to the agent").press("Enter");
        await page.locator(".divider-reset").waitFor();
        await expectNoHorizontalOverflow(page);
        await saveScreenshot(page, `web-ui-${viewport.width}-chat`);
        await close(page);
      });

      it("saves settings to .ctxwin/config.json and keeps the layout within the viewport", async () => {
        const page = await open(viewport, `#/session/${FIXTURE_SESSION}`);
        await showPanel(page, "Settings");
        await page.getByLabel("Strategy").waitFor();
        expect(await page.locator(".settings .hint").count()).toBe(3);
        const threshold = viewport.width < 900 ? "0.65" : "0.75";
        await page.getByLabel("Threshold").fill(threshold);
        await page.getByRole("button", { name: "Save settings" }).click();
        await page.getByText(/^Saved to .*config\.json/).waitFor();
        const config = JSON.parse(fs.readFileSync(path.join(fixture.directory, ".ctxwin", "config.json"), "utf8")) as {
          budget?: { threshold?: number };
        };
        expect(config.budget?.threshold).toBe(Number(threshold));
        await expectNoHorizontalOverflow(page);
        await page.goto(`${server.origin}/#/`);
        await page.getByRole("link", { name: /After the soft clear: read again/ }).waitFor();
        await expectNoHorizontalOverflow(page);
        await saveScreenshot(page, `web-ui-${viewport.width}-sessions`);
        expect(await page.evaluate(`window.matchMedia(${JSON.stringify(WIDE)}).matches`)).toBe(viewport.width >= 900);
        await close(page);
      });
    });
  }
});

/** A small folder for the demo model to explore. */
function writeWorkspace(directory: string): void {
  const project = path.join(directory, "project");
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(project, "notes.md"), "# Notes\n\nThe project keeps its notes here.\nSecond line.\n");
  fs.writeFileSync(path.join(project, "guide.md"), "# Guide\n\nHow to use the project.\n".repeat(20));
  fs.writeFileSync(path.join(project, "main.ts"), 'export const main = () => "hello";\n'.repeat(30));
}
