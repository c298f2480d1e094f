import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Where Debian installs chromium (CI installs it via .ci/run). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether headless chromium is available for report tests. */
export const hasChromium = existsSync(CHROMIUM_PATH);

/** Flags for chromium on this closed network (no background connections, no GPU, as root). */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--hide-scrollbars',
];

/** A local page open in headless chromium, with everything it reported as an error. */
export interface OpenPage {
  readonly page: Page;
  /** Console errors and uncaught exceptions, in the order they happened. */
  readonly errors: string[];
  close(): Promise<void>;
}

/**
 * Starts Debian's headless chromium, driven by playwright-core (which downloads nothing). A test
 * file opening several pages starts one in `beforeAll` and closes it in `afterAll`: a start costs
 * seconds, a page in a fresh context of a running one a fraction of that.
 * @returns the browser; close it when done
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
}

/**
 * Opens a local HTML file in a page of its own (a fresh browser context: no state shared with
 * other pages) of a running chromium, and collects console errors and uncaught exceptions from
 * the start.
 * @param browser - a chromium from {@link launchChromium}
 * @param htmlPath - the file to open
 * @param viewport - the window size
 * @returns the open page; closing it closes its context, not the browser
 */
export async function openInBrowser(
  browser: Browser,
  htmlPath: string,
  viewport: { width: number; height: number } = { width: 1280, height: 2000 },
): Promise<OpenPage> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`Uncaught ${error.name}: ${error.message}`));
  try {
    await page.goto(pathToFileURL(htmlPath).href);
  } catch (error) {
    await page.close();
    throw error;
  }
  return { page, errors, close: () => page.close() };
}

/**
 * Opens a local HTML file in a chromium of its own ({@link launchChromium}, {@link openInBrowser}),
 * for a test file opening one page.
 * @param htmlPath - the file to open
 * @param viewport - the window size
 * @returns the open page; closing it closes the browser
 */
export async function openInChromium(
  htmlPath: string,
  viewport?: { width: number; height: number },
): Promise<OpenPage> {
  const browser = await launchChromium();
  try {
    const open = await openInBrowser(browser, htmlPath, viewport);
    return { ...open, close: () => browser.close() };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
