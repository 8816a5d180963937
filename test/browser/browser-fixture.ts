/**
 * The setup every browser test file shares: the two viewports, the built web UI, a temporary
 * directory served by what the file starts in it, Chromium, and pages that record their script
 * errors. One place for it, so a file states only its own data and checks.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchChromium } from "./browser-support.js";

/** A phone and a wide desktop: every page is checked at both. */
export const VIEWPORTS = [
  { name: "phone", width: 375, height: 667 },
  { name: "desktop", width: 1900, height: 1080 },
] as const;

export type Viewport = (typeof VIEWPORTS)[number];

/** The web UI as `npm run build` (test/build-once.ts) writes it. */
export const WEB_ROOT = path.resolve(import.meta.dirname, "..", "..", "dist", "web");

export interface BrowserFixture {
  /** Chromium, launched in `beforeAll`. */
  readonly browser: Browser;
  /** The temporary directory `start` was given. */
  readonly directory: string;
  /** Registers something to close in `afterAll` (after Chromium, the latest first, before the directory goes). */
  onClose(close: () => Promise<void> | void): void;
}

/**
 * Registers the file's `beforeAll` (a temporary directory named `<prefix>…`, then `start` with it,
 * then Chromium) and `afterAll` (Chromium, what was registered with `onClose`, the directory).
 *
 * @example
 * let server: Awaited<ReturnType<typeof startServer>>;
 * const fixture = browserFixture("ctxwin-timeline-ui-", async (directory, onClose) => {
 *   server = await startServer({ directory, webRoot: WEB_ROOT, log: () => undefined });
 *   onClose(() => server.close());
 * });
 */
export function browserFixture(
  prefix: string,
  start: (directory: string, onClose: BrowserFixture["onClose"]) => Promise<void> = async () => undefined,
): BrowserFixture {
  let browser: Browser | undefined;
  let directory: string | undefined;
  const closers: Array<() => Promise<void> | void> = [];
  const onClose = (close: () => Promise<void> | void) => void closers.push(close);

  beforeAll(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    await start(directory, onClose);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    for (const close of closers.reverse()) await close();
    if (directory !== undefined) fs.rmSync(directory, { recursive: true, force: true });
  });

  return {
    get browser() {
      if (browser === undefined)
        throw new Error("browserFixture: Chromium is launched in beforeAll; use the browser inside a test");
      return browser;
    },
    get directory() {
      if (directory === undefined)
        throw new Error("browserFixture: the directory is made in beforeAll; use it inside a test");
      return directory;
    },
    onClose,
  };
}

export interface OpenPageOptions {
  viewport: { width: number; height: number };
  url: string;
  /** Playwright's default timeout for the page's actions. */
  timeout?: number;
  acceptDownloads?: boolean;
  /** Record and dismiss `alert`/`confirm` dialogs as errors (a page that must never open one). */
  dismissDialogs?: boolean;
}

/**
 * Opens `url` in a new page at `viewport`; `errors` collects the page's uncaught errors and its
 * console errors, for a test to expect none.
 *
 * @example
 * const { page, errors } = await openPage(fixture.browser, { viewport: VIEWPORTS[0], url: server.url });
 * expect(errors).toEqual([]);
 */
export async function openPage(
  browser: Browser,
  { viewport, url, timeout = 30_000, acceptDownloads, dismissDialogs = false }: OpenPageOptions,
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({
    viewport: { width: viewport.width, height: viewport.height },
    ...(acceptDownloads === undefined ? {} : { acceptDownloads }),
  });
  const errors: string[] = [];
  page.setDefaultTimeout(timeout);
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  if (dismissDialogs) {
    page.on("dialog", (dialog) => {
      errors.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
  }
  await page.goto(url);
  return { page, errors };
}
