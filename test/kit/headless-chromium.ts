import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where Debian installs chromium (CI installs it via .ci/run). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether headless chromium is available for report tests. */
export const hasChromium = existsSync(CHROMIUM_PATH);

/** What one headless chromium run produced. */
export interface ChromiumRun {
  readonly stdout: string;
  readonly stderr: string;
}

const BASE_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--hide-scrollbars',
  '--enable-logging=stderr',
  '--v=0',
  // Lets requestAnimationFrame and timers run before the DOM is dumped or the screenshot taken.
  '--virtual-time-budget=10000',
];

/**
 * Opens a local HTML file in headless chromium with a fresh profile.
 * @param htmlPath - the file to open
 * @param action - `--dump-dom` or `--screenshot=<png>` (and any further flags)
 * @param windowSize - viewport size, `width,height`
 * @returns chromium's stdout (the DOM for --dump-dom) and stderr (console log lines)
 */
export async function runChromium(
  htmlPath: string,
  action: readonly string[],
  windowSize = '1280,2000',
): Promise<ChromiumRun> {
  const profile = await mkdtemp(join(tmpdir(), 'keel-chromium-'));
  try {
    return await new Promise<ChromiumRun>((resolve, reject) => {
      execFile(
        CHROMIUM_PATH,
        [
          ...BASE_FLAGS,
          `--user-data-dir=${profile}`,
          `--window-size=${windowSize}`,
          ...action,
          pathToFileURL(htmlPath).href,
        ],
        { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => (error ? reject(error) : resolve({ stdout, stderr })),
      );
    });
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}
