/**
 * Launching Debian's Chromium for the browser tests through playwright-core, offline: no
 * background networking, no component updates, no sync, no extensions. Without the browser the
 * tests skip locally and fail in CI (`CI=true`), where `.ci/run` installs it.
 */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM_PATH = process.env["CTXWIN_CHROMIUM"] ?? "/usr/bin/chromium";
export const CHROMIUM_AVAILABLE = existsSync(CHROMIUM_PATH);
export const REQUIRE_CHROMIUM = process.env["CI"] === "true";

/** Screenshots for people to look at (git-ignored, kept by CI as artifacts). */
export const ARTIFACTS_DIRECTORY = path.resolve(import.meta.dirname, "..", "..", "test-artifacts");

const OFFLINE_ARGUMENTS = [
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-extensions",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-domain-reliability",
  "--disable-client-side-phishing-detection",
  "--disable-breakpad",
  "--metrics-recording-only",
  "--mute-audio",
];

/**
 * @example
 * const browser = await launchChromium();
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: OFFLINE_ARGUMENTS });
}

/** Whether anything makes the page wider than its viewport (the document scrolls sideways). */
export async function horizontalOverflow(page: Page): Promise<{ scrollWidth: number; clientWidth: number }> {
  return page.evaluate(
    "({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth })",
  ) as Promise<{ scrollWidth: number; clientWidth: number }>;
}

/** Saves a full-page screenshot to `test-artifacts/<name>.png`. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIRECTORY, { recursive: true });
  const file = path.join(ARTIFACTS_DIRECTORY, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
