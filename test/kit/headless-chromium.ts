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
 * Opens a local HTML file in Debian's headless chromium (driven by playwright-core, which
 * downloads nothing) and collects console errors and uncaught exceptions from the start.
 * @param htmlPath - the file to open
 * @param viewport - the window size
 * @returns the open page; close it when done
 */
export async function openInChromium(
  htmlPath: string,
  viewport: { width: number; height: number } = { width: 1280, height: 2000 },
): Promise<OpenPage> {
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
  });
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`Uncaught ${error.name}: ${error.message}`));
  await page.goto(pathToFileURL(htmlPath).href);
  return { page, errors, close: () => browser.close() };
}
