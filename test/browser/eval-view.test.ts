/**
 * The Eval view in a real browser (Debian's Chromium through playwright-core) at 375×667 and
 * 1900×1080, over a server started as `ctxwin serve --eval results.jsonl` would be (the results
 * fixture: two suites, three strategies, a failed item whose error is hostile markup): the nav
 * link, a score and a token chart per suite with a bar per strategy, the comparison and item
 * tables, the error shown as text. Also the page `ctxwin eval --html` writes, opened from disk.
 * Screenshots go to test-artifacts/.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { openEvalSource } from "../../src/cli/serve/eval-source.js";
import { renderEvalReport } from "../../src/eval/report-html.js";
import {
  FIXTURE_HEADER,
  FIXTURE_RESULTS,
  HOSTILE_TEXT,
  writeResultsFixture,
} from "../../src/eval/test-support/results-fixture.js";
import { startServer } from "../../src/server/start-server.js";
import { browserFixture, openPage, VIEWPORTS, WEB_ROOT, type Viewport } from "./browser-fixture.js";
import { CHROMIUM_AVAILABLE, horizontalOverflow, saveScreenshot } from "./browser-support.js";

describe.skipIf(!CHROMIUM_AVAILABLE)("Eval view in Chromium", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let plainServer: Awaited<ReturnType<typeof startServer>>;
  const fixture = browserFixture("ctxwin-eval-ui-", async (directory, onClose) => {
    const results = path.join(directory, "results.jsonl");
    writeResultsFixture(results);
    server = await startServer({
      directory,
      webRoot: WEB_ROOT,
      eval: await openEvalSource({ file: results }),
      log: () => undefined,
    });
    onClose(() => server.close());
    plainServer = await startServer({ directory, webRoot: WEB_ROOT, log: () => undefined });
    onClose(() => plainServer.close());
  });

  const open = (viewport: Viewport, url: string) => openPage(fixture.browser, { viewport, url, dismissDialogs: true });

  for (const viewport of VIEWPORTS) {
    describe(`at ${viewport.width}×${viewport.height}`, () => {
      it("the Eval link opens a chart per suite comparing the strategies, the table and the items", async () => {
        const { page, errors } = await open(viewport, server.url);
        await page.getByRole("link", { name: "Eval", exact: true }).click();
        await page.getByRole("heading", { name: "Eval", level: 1 }).waitFor();
        expect(page.url()).toMatch(/#\/eval$/);
        expect(await page.getByTestId("eval-run").textContent()).toContain(
          "demo (ctxwin's scripted eval model) · context limit 16,000 · seed 33",
        );

        const suites = page.locator("section.eval-suite");
        await expect.poll(() => suites.count()).toBe(2);
        expect(
          await suites.evaluateAll((sections) => sections.map((section) => section.getAttribute("data-suite"))),
        ).toEqual(["continuity", "needle"]);

        for (const suite of ["continuity", "needle"]) {
          const score = page.getByRole("group", { name: `Score by strategy, ${suite}` });
          const tokens = page.getByRole("group", { name: `Tokens and cost by strategy, ${suite}` });
          await expect.poll(() => score.locator("[data-strategy]").count()).toBe(3);
          expect(
            await score
              .locator("[data-strategy]")
              .evaluateAll((bars) => bars.map((bar) => bar.getAttribute("data-strategy"))),
          ).toEqual(["rollover", "compact", "off"]);
          // Input and output, stacked.
          expect(await tokens.locator("[data-strategy] .eval-bar-segment").count()).toBe(6);
          const table = page.getByRole("table", { name: `Comparison, ${suite}` });
          expect(
            await table.locator("tbody tr").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-strategy"))),
          ).toEqual(["rollover", "compact", "off"]);
        }

        await saveScreenshot(page, `eval-view-${viewport.name}`);

        // The needle bars are drawn to scale: rollover scored 100%, compact 50%, off 0.
        const needleScore = page.getByRole("group", { name: "Score by strategy, needle" });
        const heights = await needleScore
          .locator(".eval-bar-segment")
          .evaluateAll((rects) => rects.map((rect) => Number(rect.getAttribute("height"))));
        expect(heights[0]).toBeGreaterThan(0);
        expect(heights[1]).toBeCloseTo(heights[0]! / 2, 1);
        expect(heights[2]).toBe(0);
        expect(
          await page
            .getByRole("table", { name: "Comparison, needle" })
            .locator('tr[data-strategy="compact"]')
            .textContent(),
        ).toMatch(/^compact250\.0%–0024,0001,000\$0\.02004\.0044$/);

        // A bar's figures, by keyboard.
        await needleScore.locator('[data-strategy="rollover"]').focus();
        await page.keyboard.press("ArrowRight");
        await expect
          .poll(() => page.locator(".eval-figures").nth(2).textContent())
          .toBe("compact: score 50.0% over 2 items");

        // The failed item: its error shown as text, never as markup.
        const items = page.getByRole("table", { name: "Items, continuity" });
        const failed = items.locator("tr.eval-item-failed");
        await failed.first().waitFor();
        expect(await failed.count()).toBe(1);
        expect(await failed.locator(".eval-error").textContent()).toBe(HOSTILE_TEXT);
        expect(await page.locator("main img, main script").count()).toBe(0);
        const needleItems = page.getByRole("table", { name: "Items, needle" }).locator("tbody tr");
        await expect.poll(() => needleItems.count()).toBe(6);
        // Items come in pages (GET /api/eval/items): all strategies, or one.
        const needle = page.getByRole("region", { name: "Suite needle" });
        expect(await needle.getByTestId("eval-items-count").textContent()).toBe("6 of 6 shown");
        await needle.getByLabel("Items of which strategy, needle").selectOption("off");
        await expect.poll(() => needle.getByTestId("eval-items-count").textContent()).toBe("2 of 2 shown");
        expect(
          new Set(await needleItems.evaluateAll((rows) => rows.map((row) => row.getAttribute("data-strategy")))),
        ).toEqual(new Set(["off"]));

        const { scrollWidth, clientWidth } = await horizontalOverflow(page);
        expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
        expect(errors).toEqual([]);
        await page.close();
      });
    });
  }

  it("shows no Eval link when no eval is loaded, and #/eval says how to load one", async () => {
    const { page, errors } = await open(VIEWPORTS[1], plainServer.url);
    await page.getByRole("heading", { name: "Sessions" }).waitFor();
    expect(await page.getByRole("link", { name: "Eval", exact: true }).count()).toBe(0);
    await page.goto(`${plainServer.url}#/eval`);
    expect(await page.getByRole("alert").textContent()).toBe(
      "No eval results are loaded: start the server with ctxwin serve --eval <results.jsonl>.",
    );
    expect(errors.filter((error) => !error.includes("404"))).toEqual([]);
    await page.close();
  });

  it("the page ctxwin eval --html writes renders from disk, offline, with its charts and the hostile text inert", async () => {
    const file = path.join(fixture.directory, "report.html");
    fs.writeFileSync(
      file,
      renderEvalReport({ header: FIXTURE_HEADER, results: FIXTURE_RESULTS, file: "results.jsonl" }),
    );
    for (const viewport of VIEWPORTS) {
      const { page, errors } = await open(viewport, pathToFileURL(file).href);
      const requests: string[] = [];
      page.on("request", (request) => requests.push(request.url()));
      await page.reload();
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(await page.locator("section").count()).toBe(2);
      expect(
        await page.getByRole("img", { name: /^Score: rollover: 100\.0%, compact: 50\.0%, off: 0\.0%$/ }).count(),
      ).toBe(1);
      const bar = await page
        .locator('section[data-suite="needle"] svg rect[data-strategy="rollover"]')
        .first()
        .boundingBox();
      expect(bar?.height).toBeGreaterThan(50);
      expect(await page.getByRole("cell", { name: HOSTILE_TEXT, exact: true }).count()).toBe(1);
      expect(await page.locator("img, script").count()).toBe(0);
      const { scrollWidth, clientWidth } = await horizontalOverflow(page);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      await saveScreenshot(page, `eval-page-${viewport.name}`);
      expect(errors).toEqual([]);
      await page.close();
    }
  });
});
