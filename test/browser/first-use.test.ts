/**
 * The web UI as a new user meets it (issue 53), in Chromium against the real server and a scripted
 * model, at 375×667 and 1400×900: the message just sent is on the page once while its answer
 * streams; an imported session shows no terminal escape codes and no internal rows while "Show
 * internal rows" is off; search marks the words it matched; after "Send in a fork" the new message
 * is in view; the empty timeline's y axis reads 0 alone; a rejected input cut to the row limit says
 * how much of it is stored; an imported session's budget is its own model's, named on the bar.
 * Nothing scrolls sideways.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { RowInput } from "../../src/core/row.js";
import { cutRowToBytes } from "../../src/core/rollover/input-cut.js";
import { rejectedInputRow } from "../../src/core/rollover/notice-rows.js";
import { scriptedModel } from "../../src/session/test-support/scripted-model.js";
import { startServer } from "../../src/server/start-server.js";
import { scriptedChat } from "../../src/server/test-support/server-fixture.js";
import { openStore } from "../../src/store/open-store.js";
import type { HistoryStore } from "../../src/store/port.js";
import { browserFixture, openPage, VIEWPORTS, WEB_ROOT } from "./browser-fixture.js";
import { CHROMIUM_AVAILABLE, horizontalOverflow, saveScreenshot } from "./browser-support.js";

/** The two widths: a phone and a laptop. */
const WIDTHS = [VIEWPORTS[0], { name: "laptop", width: 1400, height: 900 }] as const;
type Width = (typeof WIDTHS)[number];

const userText = (text: string): RowInput => ({ role: "user", parts: [{ type: "text", text }] });
const assistantText = (text: string): RowInput => ({ role: "assistant", parts: [{ type: "text", text }] });
const ESC = "\u001b";
const HELD = "Hold this answer";
const CUT_MARKER = "CUT-INPUT-MARKER";

/** What a Claude Code import holds: its header naming the model, a dim status line, a routine line kept as an internal row. */
function importedRows(width: number): RowInput[] {
  return [
    {
      role: "system",
      parts: [{ type: "text", text: "Imported claude-code session" }],
      synthetic: true,
      uiVisible: false,
      meta: { type: "imported-session", source: "claude-code", model: "claude-sonnet-4-5-20250929" },
    },
    userText(`Where is the lighthouse keeper's log? (${width})`),
    assistantText(`${ESC}[2mCompacted (ctrl+o to see full summary)${ESC}[22m`),
    {
      role: "system",
      parts: [{ type: "text", text: `${ESC}[33mhook: PreToolUse ran${ESC}[0m` }],
      synthetic: true,
      uiVisible: true,
      meta: { type: "imported-raw-line", source: "claude-code", lineType: "progress" },
    },
    assistantText("The keeper wrote the log in the lantern room; the logbooks sit on the shelf by the stairs."),
    cutRowToBytes(
      rejectedInputRow({
        parts: [{ type: "text", text: `${CUT_MARKER} ${"z".repeat(6_000)}` }],
        reason: "too large to store",
        estimatedTokens: 2_000,
        hardCeiling: 1_000,
      }),
      2_000,
    ),
  ];
}

/** Sixty messages, long enough that the transcript scrolls at both widths. */
function longRows(): RowInput[] {
  return Array.from({ length: 60 }, (_, index) => {
    const number = index + 1;
    const text = `Message ${number}: ${"a line of the conversation that takes some room. ".repeat(3)}`;
    return number % 2 === 1 ? userText(text) : assistantText(text);
  });
}

describe.skipIf(!CHROMIUM_AVAILABLE)("the web UI as a new user meets it, in Chromium", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let store: HistoryStore;
  /** Resolves the held answer of the chat turn. */
  let release: () => void = () => undefined;
  const fixture = browserFixture("ctxwin-first-use-", async (directory, onClose) => {
    store = openStore({ directory });
    onClose(() => store.close());
    for (const { width } of WIDTHS) {
      await store.append(`chat-${width}`, [userText("Hello there"), assistantText("Hello.")]);
      await store.append(`imported-${width}`, importedRows(width));
      await store.append(`empty-${width}`, [userText("Nothing was asked of a model here.")]);
      await store.append(`long-${width}`, longRows());
    }
    const { model } = scriptedModel({
      script: (call) => ({ text: call.text.includes("carefully") ? "Forked answer." : "Answered.", inputTokens: 400 }),
      beforeAnswer: async (call) => {
        const lastUser = call.text.split("\n").findLast((line) => line.startsWith("user: ")) ?? "";
        if (lastUser.includes(HELD)) await new Promise<void>((resolve) => (release = resolve));
      },
    });
    server = await startServer({
      directory,
      store,
      webRoot: WEB_ROOT,
      log: () => undefined,
      chat: scriptedChat({ model }),
    });
    onClose(() => server.close());
  });

  const open = (width: Width, sessionId: string) =>
    openPage(fixture.browser, { viewport: width, url: `${server.url}#/session/${sessionId}`, timeout: 60_000 });

  const noSidewaysScroll = async (page: Page, width: Width) =>
    expect((await horizontalOverflow(page)).scrollWidth).toBeLessThanOrEqual(width.width);

  for (const width of WIDTHS) {
    it(`at ${width.width} px: the message just sent is on the page once while its answer streams`, async () => {
      const { page, errors } = await open(width, `chat-${width.width}`);
      await page.locator(".rows article", { hasText: "Hello." }).waitFor();
      // Count the sent message's copies on every change of the transcript, so speed does not matter.
      await page.evaluate(`(() => {
        const transcript = document.querySelector(".transcript");
        window.__copies = [];
        const count = () => [...transcript.querySelectorAll("article")]
          .filter((article) => (article.textContent ?? "").includes(${JSON.stringify(HELD)})).length;
        new MutationObserver(() => window.__copies.push(count())).observe(transcript, { childList: true, subtree: true, characterData: true });
      })()`);
      const timelineReloaded = page.waitForResponse((response) => response.url().includes("/timeline"));
      await page.getByLabel("Message to the agent").fill(HELD);
      await page.getByLabel("Message to the agent").press("Enter");
      // The user's row is stored and announced (the timeline reloads on it) while the answer is held.
      await timelineReloaded;
      await page.locator(".live-answer").waitFor();
      await page.evaluate("new Promise((resolve) => setTimeout(resolve, 300))");
      await saveScreenshot(page, `first-use-streaming-${width.width}`);
      release();
      await page.locator(".rows article", { hasText: "Answered." }).waitFor();
      await page.locator(".live-answer").waitFor({ state: "detached" });
      const copies = (await page.evaluate("window.__copies")) as number[];
      expect(copies.length).toBeGreaterThan(0);
      expect(Math.max(...copies)).toBe(1);
      expect(await page.locator(".rows article", { hasText: HELD }).count()).toBe(1);
      await noSidewaysScroll(page, width);
      await page.close();
      expect(errors).toEqual([]);
    }, 120_000);

    it(`at ${width.width} px: an import shows no escape codes, no internal rows until asked; search marks words; a cut input says what is stored`, async () => {
      const { page, errors } = await open(width, `imported-${width.width}`);
      const transcript = page.getByRole("region", { name: "Transcript" });
      await transcript.locator("article", { hasText: "lantern room" }).waitFor();
      const text = (await transcript.textContent()) ?? "";
      expect(text).toContain("Compacted (ctrl+o to see full summary)");
      expect(text).not.toContain(ESC);
      expect(text).not.toMatch(/\[2m|\[22m/);
      expect(await transcript.getByText(/Internal row/).count()).toBe(0);
      expect(text).not.toContain("hook: PreToolUse ran");

      // The budget is measured against the session's own model, which the bar names (ADR 0080).
      expect(await page.getByTestId("budget-model").textContent()).toBe(
        "limit of claude-sonnet-4-5-20250929, this session's model",
      );
      expect(await page.getByTestId("budget-summary").textContent()).toMatch(/ \/ 200,000 tokens/);

      // The cut input: how much of it is stored.
      const rejected = page.locator(".row-rejected-input");
      expect(await rejected.locator(".rejected-cut").textContent()).toMatch(
        /^Only the first [\d,]+ of 6,017 characters are stored/,
      );
      await saveScreenshot(page, `first-use-imported-${width.width}`);

      // Asked for, the routine line appears as an internal row, still without escape codes.
      await page.getByLabel("Show internal rows").check();
      await transcript
        .getByText(/Internal row \(system\)/)
        .first()
        .waitFor();
      await transcript
        .getByRole("button", { name: /Internal row/ })
        .first()
        .click();
      expect(await transcript.textContent()).not.toContain(ESC);
      await page.getByLabel("Show internal rows").uncheck();
      await transcript
        .getByText(/Internal row/)
        .first()
        .waitFor({ state: "detached" });

      // Search marks the words it matched.
      const searchTab = page.getByRole("button", { name: "Search" });
      if ((await searchTab.getAttribute("aria-pressed")) !== "true") await searchTab.click();
      await page.getByLabel("Search this session's history").fill("lighthouse logs");
      await page.getByLabel("ranked words").check();
      await page.getByRole("button", { name: "Search", exact: true }).last().click();
      const hits = page.locator(".hits .hit");
      await hits.first().waitFor();
      const marked = await page.locator(".hits mark").allTextContents();
      expect(new Set(marked.map((word) => word.toLowerCase()))).toEqual(new Set(["lighthouse", "log"]));
      await saveScreenshot(page, `first-use-search-${width.width}`);
      await noSidewaysScroll(page, width);
      await page.close();
      expect(errors).toEqual([]);
    }, 120_000);

    it(`at ${width.width} px: the empty timeline's axis reads 0 alone`, async () => {
      const { page, errors } = await open(width, `empty-${width.width}`);
      await page.locator(".rows article", { hasText: "Nothing was asked" }).waitFor();
      await page.locator(".timeline-tick").first().waitFor();
      expect(await page.locator(".timeline-tick").allTextContents()).toEqual(["0"]);
      await noSidewaysScroll(page, width);
      await page.close();
      expect(errors).toEqual([]);
    }, 60_000);

    it(`at ${width.width} px: after "Send in a fork" the new message is in view`, async () => {
      const { page, errors } = await open(width, `long-${width.width}`);
      await page.locator(".rows article", { hasText: "Message 60:" }).waitFor();
      const edit = page.getByRole("button", { name: "Edit item 41 in a fork" });
      await edit.scrollIntoViewIfNeeded();
      await edit.click();
      await page.locator(".row-edit textarea").fill("Message 41, asked again carefully");
      await page.getByRole("button", { name: "Send in a fork" }).click();
      const answer = page.locator(".rows article", { hasText: "Forked answer." });
      await answer.waitFor();
      expect(await page.evaluate("decodeURIComponent(window.location.hash)")).toMatch(/^#\/session\/fork-/);
      // The new message and its answer are where the transcript and the page are scrolled to.
      const inView = (await page.evaluate(`(() => {
        const transcript = document.querySelector(".transcript");
        const question = [...transcript.querySelectorAll(".rows article")].find((article) => article.textContent.includes("Message 41, asked again carefully"));
        const row = question.getBoundingClientRect();
        const box = transcript.getBoundingClientRect();
        return row.bottom > Math.max(0, box.top) && row.top < Math.min(window.innerHeight, box.bottom);
      })()`)) as boolean;
      expect(inView).toBe(true);
      await saveScreenshot(page, `first-use-fork-${width.width}`);
      await noSidewaysScroll(page, width);
      await page.close();
      expect(errors).toEqual([]);
    }, 120_000);
  }
});
