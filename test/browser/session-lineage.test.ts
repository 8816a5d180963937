/**
 * Session lineage in a real browser (Debian's Chromium through playwright-core) against the real
 * server and a scripted model (ADR 0070), at 375×667 and 1900×1080: the sessions page nests a
 * sub-agent's session under its parent and labels a fork with its origin; a `task` call in the
 * transcript links to the child's transcript, whose page links back; "Edit" on an earlier user
 * message forks the session just before it, opens the fork and sends the edited text there, and
 * the original session keeps its own message. Nothing scrolls sideways.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { RowInput } from "../../src/core/row.js";
import { scriptedModel } from "../../src/session/test-support/scripted-model.js";
import { rowText } from "../../src/session/test-support/session-fixture.js";
import { readAllRows } from "../../src/session/test-support/session-invariants.js";
import { startServer } from "../../src/server/start-server.js";
import { scriptedChat } from "../../src/server/test-support/server-fixture.js";
import { openStore } from "../../src/store/open-store.js";
import type { HistoryStore } from "../../src/store/port.js";
import { browserFixture, openPage, VIEWPORTS, WEB_ROOT, type Viewport } from "./browser-fixture.js";
import { CHROMIUM_AVAILABLE, horizontalOverflow, saveScreenshot } from "./browser-support.js";

/** Built by `npm run build` (the test run's global setup). */

const userText = (text: string): RowInput => ({ role: "user", parts: [{ type: "text", text }] });
const assistantText = (text: string): RowInput => ({ role: "assistant", parts: [{ type: "text", text }] });

/** A lead session whose item 2 holds a finished `task` call, its child, and a fork of it after item 3. */
async function seedTree(store: HistoryStore, lead: string): Promise<void> {
  const child = `${lead}/reviewer-call-1`;
  await store.append(lead, [
    userText(`Delegate the review (${lead})`),
    {
      role: "assistant",
      parts: [
        {
          type: "tool-task",
          toolCallId: "call-1",
          state: "output-available",
          input: { agent: "reviewer", prompt: "review the diff" },
          output: {
            status: "completed",
            agent: "reviewer",
            session_id: child,
            answer: "looks fine",
            answer_chars: 10,
            truncated: false,
          },
        },
      ],
    },
    assistantText("The reviewer says it looks fine."),
    userText("Now ship it"),
    assistantText("Shipped."),
  ]);
  await store.append(child, [userText(`Review the diff for ${lead}`), assistantText("looks fine")], {
    parent: { sessionId: lead, itemId: "2" },
  });
  await store.fork(lead, { atSeq: 3, newSessionId: `${lead}-retry` });
}

describe.skipIf(!CHROMIUM_AVAILABLE)("session lineage in Chromium", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let store: HistoryStore;
  const fixture = browserFixture("ctxwin-lineage-", async (directory, onClose) => {
    store = openStore({ directory });
    onClose(() => store.close());
    for (const viewport of VIEWPORTS) await seedTree(store, `lead-${viewport.width}`);
    const { model } = scriptedModel({
      script: (call) => ({
        text: call.text.includes("carefully") ? "Shipping carefully." : "Answered.",
        inputTokens: 400,
      }),
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

  const open = (viewport: Viewport) => openPage(fixture.browser, { viewport, url: `${server.url}#/`, timeout: 60_000 });

  const hash = (page: Page) => page.evaluate("decodeURIComponent(window.location.hash)") as Promise<string>;

  for (const viewport of VIEWPORTS) {
    it(`at ${viewport.width}×${viewport.height}: nests children, labels forks, links task calls to children, edits an earlier message in a fork`, async () => {
      const lead = `lead-${viewport.width}`;
      const { page, errors } = await open(viewport);

      // The list: the child under its parent's entry, the fork labelled with its origin.
      // The fork has its origin's title: the lead's entry is the one with children.
      const leadEntry = page
        .locator(".sessions > li")
        .filter({ has: page.locator(":scope > .session-children") })
        .filter({ hasText: `Delegate the review (${lead})` });
      await leadEntry.first().waitFor();
      expect(await leadEntry.locator(".session-children .session-title").allTextContents()).toEqual([
        `Review the diff for ${lead}`,
      ]);
      expect(await leadEntry.locator(".session-children .session-lineage").first().textContent()).toBe(
        "sub-agent · task call at item 2",
      );
      const forkEntry = page.locator(".sessions > li > a", { hasText: `${lead}-retry` });
      expect(await forkEntry.locator(".session-lineage").textContent()).toBe(
        `fork of Delegate the review (${lead}) after item 3`,
      );
      expect((await horizontalOverflow(page)).scrollWidth).toBeLessThanOrEqual(viewport.width);
      await saveScreenshot(page, `session-lineage-list-${viewport.width}`);

      // The task call links to the child's transcript, which links back to its parent.
      await leadEntry.locator(":scope > a").first().click();
      await page.getByRole("link", { name: "Open the sub-agent's transcript →" }).click();
      expect(await hash(page)).toBe(`#/session/${lead}/reviewer-call-1`);
      const lineage = page.getByLabel("Session lineage");
      expect(await lineage.textContent()).toContain(`Sub-agent session of ${lead} (its task call at item 2).`);
      await page.locator(".rows article", { hasText: `Review the diff for ${lead}` }).waitFor();
      await lineage.getByRole("link", { name: lead }).click();
      await page
        .getByLabel("Session lineage")
        .getByRole("link", { name: `Review the diff for ${lead}` })
        .waitFor();

      // Edit item 4 ("Now ship it"): a fork after item 3 opens and answers the edited text.
      await page.getByRole("button", { name: "Edit item 4 in a fork" }).click();
      const field = page.locator(".row-edit textarea");
      expect(await field.inputValue()).toBe("Now ship it");
      await field.fill("Now ship it carefully");
      await page.getByRole("button", { name: "Send in a fork" }).click();
      await page.locator(".rows article", { hasText: "Shipping carefully." }).waitFor();
      const forkId = (await hash(page)).replace("#/session/", "");
      expect(forkId).toMatch(/^fork-/);
      expect(await page.getByLabel("Session lineage").textContent()).toContain(`Fork of ${lead} after item 3.`);
      expect(await page.locator(".rows article .row-body").allTextContents()).toEqual(
        expect.arrayContaining([
          `Delegate the review (${lead})`,
          "The reviewer says it looks fine.",
          "Now ship it carefully",
          "Shipping carefully.",
        ]),
      );
      expect((await horizontalOverflow(page)).scrollWidth).toBeLessThanOrEqual(viewport.width);
      await saveScreenshot(page, `session-lineage-fork-${viewport.width}`);
      // The original keeps its own message and answer.
      expect((await readAllRows(store, lead)).map(rowText).filter((text) => text !== "")).toEqual([
        `Delegate the review (${lead})`,
        "The reviewer says it looks fine.",
        "Now ship it",
        "Shipped.",
      ]);
      expect((await readAllRows(store, forkId)).map(rowText).slice(3)).toEqual([
        "Now ship it carefully",
        "Shipping carefully.",
      ]);
      expect(await page.getByRole("alert").count()).toBe(0);
      await page.close();
      expect(errors).toEqual([]);
    }, 180_000);
  }
});
