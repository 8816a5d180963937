/**
 * The context timeline in a real browser (Debian's Chromium through playwright-core) at 375×667
 * and 1900×1080, over a view-only server and the timeline fixture session (two warnings, two
 * rollovers, a compaction, a clear, notes writes and a flush step): every mark is drawn, a click
 * or Enter lands on the row in the transcript, a row stored by another process appears live, and
 * both exports download. Screenshots go to test-artifacts/.
 */
import fs from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { stepMetadata } from "../../src/core/rollover/step-usage.js";
import { startServer } from "../../src/server/start-server.js";
import { openStore } from "../../src/store/open-store.js";
import { writeTimelineFixture } from "../../src/store/test-support/timeline-fixture.js";
import { browserFixture, openPage, VIEWPORTS, WEB_ROOT, type Viewport } from "./browser-fixture.js";
import { CHROMIUM_AVAILABLE, horizontalOverflow, saveScreenshot } from "./browser-support.js";

/** Built by `npm run build` (the test run's global setup). */

describe.skipIf(!CHROMIUM_AVAILABLE)("context timeline in Chromium", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  const fixture = browserFixture("ctxwin-timeline-ui-", async (directory, onClose) => {
    const store = openStore({ directory });
    for (const viewport of VIEWPORTS) await writeTimelineFixture({ store, sessionId: `timeline-${viewport.width}` });
    // A first window too long to open with (600 filler rows): the chart opens on the newer windows.
    await store.append(
      "timeline-long",
      Array.from({ length: 600 }, (_, index) => ({
        role: "user" as const,
        parts: [{ type: "text" as const, text: `row ${index}` }],
      })),
    );
    await writeTimelineFixture({ store, sessionId: "timeline-long" });
    // Two requests to a priced model, the second mostly read from the provider's prompt cache.
    const cachedStep = (inputTokens: number, cacheReadTokens: number, cacheWriteTokens: number) => ({
      role: "assistant" as const,
      parts: [{ type: "text" as const, text: "ok" }],
      metadata: stepMetadata({
        usage: { inputTokens, outputTokens: 100, cacheReadTokens, cacheWriteTokens },
        model: "anthropic.messages:claude-sonnet-4-5",
        contextLimit: 200_000,
      }),
    });
    await store.append("timeline-cached", [
      { role: "user", parts: [{ type: "text", text: "Read the repository." }] },
      cachedStep(10_000, 0, 9_900),
      cachedStep(10_500, 9_900, 500),
    ]);
    await store.close();
    server = await startServer({ directory, webRoot: WEB_ROOT, log: () => undefined });
    onClose(() => server.close());
  });

  async function open(viewport: Viewport, sessionId?: string): Promise<{ page: Page; errors: string[] }> {
    const url = `${server.url}#/session/${sessionId ?? `timeline-${viewport.width}`}`;
    const opened = await openPage(fixture.browser, { viewport, url, acceptDownloads: true });
    await opened.page.getByRole("group", { name: "Context timeline" }).waitFor();
    return opened;
  }

  const chart = (page: Page) => page.getByRole("group", { name: "Context timeline" });
  const figures = (page: Page) => page.getByTestId("timeline-figures");

  async function expectLandedOn(page: Page, seq: number): Promise<void> {
    const row = page.locator(`.row-highlighted[data-seq="${seq}"]`);
    await row.waitFor();
    await expect
      .poll(
        async () => {
          const [box, area] = await Promise.all([row.boundingBox(), page.locator(".transcript").boundingBox()]);
          return box !== null && area !== null && box.y >= area.y - 1 && box.y < area.y + area.height;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
  }

  for (const viewport of VIEWPORTS) {
    describe(`at ${viewport.width}×${viewport.height}`, () => {
      it("draws every request, mark, window span and budget line; a click lands on the row", async () => {
        const { page, errors } = await open(viewport);
        const svg = chart(page);
        await expect.poll(() => svg.locator("[data-point]").count()).toBe(12);
        const marks = async (kind: string) => svg.locator(`[data-mark="${kind}"]`).count();
        expect(await marks("warning")).toBe(2);
        expect(await marks("rollover")).toBe(2);
        expect(await marks("compaction")).toBe(1);
        expect(await marks("clear")).toBe(1);
        expect(await marks("notes")).toBe(2);
        expect(await marks("flush")).toBe(1);
        expect(await svg.locator("[data-window]").count()).toBe(5);
        expect(await svg.locator('[data-line="threshold"]').count()).toBe(5);
        expect(await svg.locator('[data-line="ceiling"]').count()).toBe(5);
        expect(await svg.locator('[data-mark="rollover"]').first().getAttribute("aria-label")).toBe(
          "Rollover (row #8, window 2) at 7,100 tokens · on-send",
        );

        const point = svg.locator('[data-point][data-seq="18"]');
        await point.hover();
        expect(await figures(page).textContent()).toBe(
          "Request at row #18, window 4: 6,500 tokens sent (65% of 10,000); 40 out, 39 tool output",
        );
        await point.click();
        await expectLandedOn(page, 18);

        await saveScreenshot(page, `timeline-${viewport.width}`);
        const { scrollWidth, clientWidth } = await horizontalOverflow(page);
        expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
        await page.close();
        expect(errors).toEqual([]);
      });

      it("has a key that names every shape the chart draws, drawn with the chart's own classes", async () => {
        const { page, errors } = await open(viewport);
        const svg = chart(page);
        await expect.poll(() => svg.locator("[data-point]").count()).toBe(12);
        // Every kind of shape drawn, by key.
        const drawn = (await page.evaluate(`(() => {
          const chart = document.querySelector('[aria-label="Context timeline"][role="group"]');
          const keys = new Set();
          chart.querySelectorAll("[data-point]").forEach((node) => keys.add("point-" + node.getAttribute("data-point")));
          chart.querySelectorAll("[data-mark]").forEach((node) => keys.add(node.getAttribute("data-mark")));
          chart.querySelectorAll("[data-line]").forEach((node) => keys.add(node.getAttribute("data-line")));
          const areas = [["span", ".timeline-span"], ["warn-band", ".timeline-warn-band"], ["request-line", ".timeline-request-line"]];
          for (const [key, selector] of areas) if (chart.querySelector(selector) !== null) keys.add(key);
          return [...keys];
        })()`)) as string[];
        expect(drawn.sort()).toEqual([
          "ceiling",
          "clear",
          "compaction",
          "flush",
          "notes",
          "point-reported",
          "request-line",
          "rollover",
          "span",
          "threshold",
          "warn-band",
          "warning",
        ]);
        const legend = page.locator(".timeline-legend");
        if (viewport.width < 900) {
          expect(await legend.getAttribute("open")).toBeNull();
          await legend.getByText("Key", { exact: true }).click();
        }
        const classOf: Record<string, string> = {
          "point-reported": ".timeline-point-reported",
          "point-estimated": ".timeline-point-estimated",
          "request-line": ".timeline-request-line",
          span: ".timeline-span",
          "warn-band": ".timeline-warn-band",
          threshold: ".timeline-threshold",
          ceiling: ".timeline-ceiling",
          rollover: ".timeline-boundary-rollover",
          compaction: ".timeline-boundary-compaction",
          clear: ".timeline-boundary-clear",
          warning: ".timeline-mark-warning",
          notes: ".timeline-mark-notes",
          flush: ".timeline-mark-flush",
        };
        for (const key of drawn) {
          const entry = legend.locator(`[data-legend="${key}"]`);
          expect(await entry.count(), key).toBe(1);
          expect(await entry.isVisible(), key).toBe(true);
          expect((await entry.textContent())?.trim().length, key).toBeGreaterThan(3);
          // The key draws the shape as the chart does: the chart has an element of the same class.
          expect(await entry.locator(classOf[key]!).count(), key).toBeGreaterThan(0);
          expect(await svg.locator(classOf[key]!).count(), key).toBeGreaterThan(0);
        }
        const { scrollWidth, clientWidth } = await horizontalOverflow(page);
        expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
        await saveScreenshot(page, `timeline-${viewport.width}-key`);
        await page.close();
        expect(errors).toEqual([]);
      });

      it("has one tab stop; the arrow keys move between items and Enter jumps", async () => {
        const { page, errors } = await open(viewport);
        const svg = chart(page);
        await expect.poll(() => svg.locator("[data-point]").count()).toBe(12);
        expect(await svg.locator('[tabindex="0"]').count()).toBe(1);
        await svg.locator('[tabindex="0"]').focus();
        await page.keyboard.press("Home");
        expect(await figures(page).textContent()).toMatch(/^Request at row #2, window 1: 2,000 tokens sent/);
        await page.keyboard.press("ArrowRight");
        await page.keyboard.press("ArrowRight");
        await page.keyboard.press("ArrowRight");
        expect(await figures(page).textContent()).toBe("Budget warning (row #5, window 1) at 6,300 tokens");
        await page.keyboard.press("ArrowLeft");
        expect(await figures(page).textContent()).toMatch(/^Request at row #4, window 1/);
        await page.keyboard.press("Enter");
        await expectLandedOn(page, 4);
        expect(await svg.locator('[tabindex="0"]').count()).toBe(1);
        await page.close();
        expect(errors).toEqual([]);
      });
    });
  }

  it("shows a request stored by another process without a reload", async () => {
    const { page, errors } = await open(VIEWPORTS[1]);
    const svg = chart(page);
    await expect.poll(() => svg.locator("[data-point]").count()).toBe(12);
    const store = openStore({ directory: fixture.directory });
    try {
      const metadata = stepMetadata({
        usage: { inputTokens: 3_300, outputTokens: 20 },
        model: "demo:scripted",
        contextLimit: 10_000,
      });
      await store.append("timeline-1900", [
        { role: "assistant", parts: [{ type: "text", text: "One more step." }], tokens: 5, metadata },
      ]);
    } finally {
      await store.close();
    }
    await expect.poll(() => svg.locator("[data-point]").count(), { timeout: 15_000 }).toBe(13);
    expect(await svg.locator('[data-point][data-seq="25"]').getAttribute("aria-label")).toMatch(
      /^Request at row #25, window 5: 3,300 tokens sent/,
    );
    await page.close();
    expect(errors).toEqual([]);
  });

  it("opens a long session on its newest windows; the overview and Earlier/Later move between windows", async () => {
    const { page, errors } = await open(VIEWPORTS[1], "timeline-long");
    const svg = chart(page);
    await expect.poll(() => svg.locator("[data-window]").count()).toBe(4);
    expect(await page.locator(".timeline-overview-bar").count()).toBe(5);
    expect(await page.locator(".timeline-overview-shown").count()).toBe(4);
    await expect.poll(() => figures(page).textContent()).toMatch(/^Windows 2–5 of 5: /);
    await page.getByRole("button", { name: "Earlier window" }).click();
    await expect.poll(() => figures(page).textContent()).toMatch(/^Window 1 of 5: 5 requests/);
    expect(await svg.locator('[data-window="w:0"]').count()).toBe(1);
    expect(await page.getByRole("button", { name: "Earlier window" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Later window" }).click();
    await expect.poll(() => figures(page).textContent()).toMatch(/^Window 2 of 5: /);
    await page.locator(".timeline-overview-bar").nth(4).click();
    await expect.poll(() => figures(page).textContent()).toMatch(/^Window 5 of 5: /);
    expect(await page.getByRole("button", { name: "Later window" }).isDisabled()).toBe(true);
    await page.close();
    expect(errors).toEqual([]);
  });

  it("shows the part of each request read from the provider's cache, and the window's cached share and cost", async () => {
    const { page, errors } = await open(VIEWPORTS[1], "timeline-cached");
    const svg = chart(page);
    await expect.poll(() => svg.locator("[data-point]").count()).toBe(2);
    // Only the second request read anything from the cache: one bar under its dot.
    expect(await svg.locator(".timeline-cached").count()).toBe(1);
    expect(await svg.locator(".timeline-cached").getAttribute("data-cached")).toBe("9900");
    expect(await svg.locator("[data-point]").nth(1).getAttribute("aria-label")).toMatch(
      /10,500 tokens sent .*; 94% cached, 100 out, ~\$0\.0\d+/,
    );
    // 9,900 of 20,500 input tokens from the cache; Claude Sonnet 4.5's public prices.
    await expect
      .poll(() => figures(page).textContent())
      .toMatch(/48% of input from the cache · ~\$0\.0456 \(no cache: \$0\.0645\)/);
    await expect
      .poll(() => page.getByTestId("budget-spend").textContent())
      .toBe("48% of input from the cache · ~$0.0456 (no cache: $0.0645)");
    await page.close();
    expect(errors).toEqual([]);
  });

  it("exports the timeline as CSV and as JSON", async () => {
    const { page, errors } = await open(VIEWPORTS[0]);
    await expect.poll(() => chart(page).locator("[data-point]").count()).toBe(12);
    const [csvDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(csvDownload.suggestedFilename()).toBe("timeline-375-timeline.csv");
    const csv = fs
      .readFileSync(await csvDownload.path(), "utf8")
      .trimEnd()
      .split("\n");
    expect(csv[0]).toBe(
      "type,kind,seq,window,at,tokens,limit,source,output_tokens,tool_output_tokens,cache_read_tokens,cache_write_tokens,cost_usd,detail",
    );
    expect(csv.filter((line) => line.startsWith("request,"))).toHaveLength(12);
    expect(csv.filter((line) => line.startsWith("mark,"))).toHaveLength(9);
    expect(csv.some((line) => /^mark,rollover,21,w:21,[^,]+,6900,,,,,,,,mid-stream$/.test(line))).toBe(true);
    const [jsonDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export JSON" }).click(),
    ]);
    const json = JSON.parse(fs.readFileSync(await jsonDownload.path(), "utf8")) as {
      points: unknown[];
      marks: unknown[];
      windows: unknown[];
    };
    expect([json.points.length, json.marks.length, json.windows.length]).toEqual([12, 9, 5]);
    await page.close();
    expect(errors).toEqual([]);
  });
});
