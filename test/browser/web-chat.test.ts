/**
 * The web chat on `useChat` in a real browser (Debian's Chromium through playwright-core) against
 * the real server and the built-in demo model at a small budget, at 375×667 and 1900×1080: a
 * message's answer streams below the transcript with its tool calls as they run, a rollover
 * divider appears while the answer is still streaming, the stored rows replace the live answer
 * when it ends, and nothing scrolls sideways. What appeared live is recorded by a
 * MutationObserver in the page, so the test does not depend on how fast the answer streams.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createDemoModel } from "../../src/agent/demo/demo-model.js";
import { explorationTask } from "../../src/agent/demo/demo-prompts.js";
import { demoTuning } from "../../src/agent/demo/demo-tuning.js";
import { workspaceChat } from "../../src/server/server-chat.js";
import { startServer } from "../../src/server/start-server.js";
import { browserFixture, openPage, VIEWPORTS, WEB_ROOT, type Viewport } from "./browser-fixture.js";
import { CHROMIUM_AVAILABLE, horizontalOverflow, saveScreenshot } from "./browser-support.js";

/** Built by `npm run build` (the test run's global setup). */
const FILES = 10;

/** Watches the live answer and notes what appeared inside it while it was there. */
const RECORD_LIVE = `(() => {
  window.__live = { toolCall: false, runningToolCall: false, rollover: "", userMessage: false };
  const look = () => {
    const live = document.querySelector(".live-answer");
    if (live === null) return;
    if (live.querySelector(".role-user") !== null) window.__live.userMessage = true;
    if (live.querySelector(".tool-call") !== null) window.__live.toolCall = true;
    const divider = live.querySelector(".divider-rollover");
    if (divider !== null) window.__live.rollover = divider.getAttribute("aria-label") ?? "?";
  };
  new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
})()`;

describe.skipIf(!CHROMIUM_AVAILABLE)("web chat on useChat in Chromium", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  const fixture = browserFixture("ctxwin-web-chat-", async (directory, onClose) => {
    const project = path.join(directory, "project");
    fs.mkdirSync(project, { recursive: true });
    for (let index = 1; index <= FILES; index += 1) {
      fs.writeFileSync(
        path.join(project, `part-${String(index).padStart(2, "0")}.md`),
        `# Part ${index}\n\n${`Line of part ${index}: what this part of the project is for.\n`.repeat(60)}`,
      );
    }
    fs.mkdirSync(path.join(directory, ".ctxwin"), { recursive: true });
    fs.writeFileSync(
      path.join(directory, ".ctxwin", "config.json"),
      `${JSON.stringify({ budget: { threshold: 0.6 } })}\n`,
    );
    server = await startServer({
      directory,
      webRoot: WEB_ROOT,
      log: () => undefined,
      chat: workspaceChat({
        model: createDemoModel({ chunkDelayMilliseconds: 2 }),
        label: "demo",
        demo: true,
        workspaceRoot: directory,
        contextLimit: 16_000,
        tuning: demoTuning,
        logWarning: () => undefined,
      }),
    });
    onClose(() => server.close());
  });

  const open = (viewport: Viewport) => openPage(fixture.browser, { viewport, url: `${server.url}#/`, timeout: 60_000 });

  for (const viewport of VIEWPORTS) {
    it(`at ${viewport.width}×${viewport.height}: streams tool calls and a rollover divider live, then shows the stored rows`, async () => {
      const { page, errors } = await open(viewport);
      await page.getByRole("button", { name: "New session" }).click();
      const box = page.getByLabel("Message to the agent");
      await box.waitFor();
      await page.getByRole("meter").waitFor();
      await page.evaluate(RECORD_LIVE);
      await box.fill(explorationTask({ folderName: "project", files: FILES }));
      await page.getByRole("button", { name: "Send", exact: true }).click();
      // The answer ends: the Send button is back and the live copy has given way to the stored rows.
      await page.getByRole("button", { name: "Send", exact: true }).waitFor({ timeout: 120_000 });
      await page.locator(".live-answer").waitFor({ state: "detached" });
      const live = (await page.evaluate("window.__live")) as {
        toolCall: boolean;
        userMessage: boolean;
        rollover: string;
      };
      expect(live.userMessage).toBe(true);
      expect(live.toolCall).toBe(true);
      expect(live.rollover).toMatch(/^Context window 2 — rolled over at \d+% · [a-z-]+$/);
      // The stored transcript holds the same: the tool calls and the divider, once each.
      await page.locator(".rows .divider-rollover").first().waitFor();
      expect(await page.locator(".rows .divider-rollover").first().getAttribute("aria-label")).toBe(live.rollover);
      expect(await page.locator(".rows .tool-call-toggle", { hasText: "read_file" }).count()).toBeGreaterThan(0);
      expect(await page.getByRole("alert").count()).toBe(0);
      const { scrollWidth, clientWidth } = await horizontalOverflow(page);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      await saveScreenshot(page, `web-chat-${viewport.width}`);
      await page.close();
      expect(errors).toEqual([]);
    }, 180_000);
  }
});
