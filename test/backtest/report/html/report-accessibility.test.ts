// Accessibility / reading checks of the HTML report in headless chromium (reviewer a11y, session 31).
// Each test states what a reader (screen reader, keyboard, narrow window, printout) needs. The page is
// measured through playwright's locators (bounding boxes in CSS pixels of the window), so this file
// needs no DOM types.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRINT_CHART_WIDTH } from '../../../../backtest/report/html/page-scripts.ts';
import { writeHtmlReport } from '../../../../backtest/report/index.ts';
import { D } from '../../../../core/model/index.ts';
import { aBacktestResult, withAlgoOrdersAndDenials } from '../../../kit/backtest-result-builders.ts';
import {
  CHROMIUM_PATH,
  hasChromium,
  launchChromium,
  type OpenPage,
  openInBrowser,
} from '../../../kit/headless-chromium.ts';

/** Right edges (x + width) of every element a locator matches. */
async function rightEdges(open: OpenPage, selector: string): Promise<{ at: string; right: number }[]> {
  const locator = open.page.locator(selector);
  const out: { at: string; right: number }[] = [];
  for (let i = 0; i < (await locator.count()); i++) {
    const box = await locator.nth(i).boundingBox();
    if (box !== null) out.push({ at: `${selector} #${i}`, right: Math.round(box.x + box.width) });
  }
  return out;
}

describe.skipIf(!hasChromium)(
  `HTML report for readers who cannot use the canvas or a wide window (skipped when ${CHROMIUM_PATH} is missing)`,
  () => {
    let dir = '';
    let reportPath = '';
    // One chromium for the file, each test's page in a fresh context of it.
    let browser: Browser | undefined;
    const openPage = (htmlPath: string, viewport?: { width: number; height: number }) => {
      if (browser === undefined) throw new Error('chromium did not start (see beforeAll)');
      return openInBrowser(browser, htmlPath, viewport);
    };
    beforeAll(async () => {
      browser = await launchChromium();
      dir = await mkdtemp(join(tmpdir(), 'keel-a11y-'));
      reportPath = await writeHtmlReport(
        withAlgoOrdersAndDenials(aBacktestResult(300)),
        join(dir, 'report.html'),
        { settleAsset: 'USDT' },
      );
    });
    afterAll(async () => {
      await browser?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('gives every chart a heading, a caption and a text summary, and exposes no empty layout tables to a screen reader', async () => {
      const open = await openPage(reportPath);
      try {
        await open.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
        const tree = await open.page.locator('#charts').ariaSnapshot();
        // Each chart was read out as a 2x3 table of empty cells (lightweight-charts' layout table).
        expect(tree, 'accessibility tree of #charts').not.toMatch(/- table:/);
        const charts = await open.page.locator('#charts .chart').count();
        expect(charts).toBe(3);
        expect(await open.page.locator('#charts figure figcaption h3.chart-title').count()).toBe(charts);
        expect(await open.page.locator('#charts figure > .chart[role="img"][aria-label]').count()).toBe(
          charts,
        );
        const labels = await open.page
          .locator('#charts .chart')
          .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
        expect(labels[0]).toMatch(
          / price in USDT from .* UTC to .* UTC: first [\d.]+, last [\d.]+, lowest [\d.]+ at .* UTC, highest [\d.]+ at .* UTC; \d+ fills \(\d+ buys, \d+ sells\)$/,
        );
        expect(labels[1]).toMatch(
          /^Equity in USDT from .*: first [\d.]+, last [\d.]+, lowest .*, highest .*; (max drawdown [\d.]+ % at .* UTC|no drawdown)$/,
        );
        expect(labels[2]).toMatch(
          /^Drawdown below the running peak of equity from .*: (max drawdown [\d.]+ % at .* UTC|no drawdown), [\d.]+ % at the end$/,
        );
        // The summaries are what a screen reader reads for the charts.
        expect(tree).toContain(`img "${labels[1]}"`);
        const headings = await open.page.getByRole('heading', { level: 3 }).allInnerTexts();
        expect(headings.some((h) => h.startsWith('Equity'))).toBe(true);
      } finally {
        await open.close();
      }
    }, 90_000);

    it('keeps the charts inside the window when the window is narrowed after opening (split screen)', async () => {
      const open = await openPage(reportPath, { width: 1280, height: 900 });
      try {
        await open.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
        await open.page.setViewportSize({ width: 640, height: 900 });
        await open.page.waitForTimeout(500);
        const boxes = await rightEdges(open, '.chart');
        const drawn = await rightEdges(open, '.chart > div');
        expect(drawn).toHaveLength(boxes.length);
        drawn.forEach((d, i) => {
          expect(d.right, `${d.at} drawn vs its box`).toBeLessThanOrEqual(boxes[i]!.right);
        });
        for (const d of drawn) expect(d.right, d.at).toBeLessThanOrEqual(640);
      } finally {
        await open.close();
      }
    }, 90_000);

    it('reflows the assumptions at 720 px (half a laptop screen, about an A4 page): no line runs off the right edge', async () => {
      // The run settings and strategy params of config/examples/sma-cross-backtest.yaml, as `keel backtest` writes them.
      const realMeta = {
        strategies: [
          {
            id: 'sma_btc',
            name: 'sma-cross',
            params: {
              allowShort: true,
              fast: 3,
              fraction: 0.5,
              interval: '1m',
              slow: 8,
              sym: 'BINANCE_PERP_BTC_USDT',
            },
          },
        ],
        runConfig: {
          closeAtEnd: true,
          equitySampleMs: 1000,
          seed: 7,
          settleAsset: 'USDT',
          startingCash: '100000',
        },
      };
      const path = await writeHtmlReport(aBacktestResult(300, realMeta), join(dir, 'real-meta.html'));
      const open = await openPage(path, { width: 720, height: 900 });
      try {
        await open.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
        const rights = [
          ...(await rightEdges(open, 'dl.assumptions dd')),
          ...(await rightEdges(open, 'dl.assumptions dd code')),
        ];
        expect(rights.length).toBeGreaterThan(0);
        for (const r of rights) expect(r.right, `${r.at}, window 720 px`).toBeLessThanOrEqual(720);
      } finally {
        await open.close();
      }
    }, 90_000);

    it('fits the trade list in a 1024 px laptop window, long syms, strategies and prices wrapped, with no sideways scroll', async () => {
      // Two strategies (the Strategy column), a perpetual's long name, a volume-weighted price of 12
      // digits, times with milliseconds and a duration of days: the widest rows a run writes.
      const base = aBacktestResult(300);
      // Ten copies of its trades make the list taller than the window, to scroll through.
      const trades = Array.from({ length: 10 }, () => [...base.trades])
        .flat()
        .map((t, i) => ({
          ...t,
          entryStrategyId: i % 2 === 0 ? 'sma_cross_btc' : 'breakout_btc',
          exitStrategyId: 'sma_cross_btc',
          entryPrice: D('94961.40608365019011406844106463878326996'),
          qty: D('0.526'),
          entryTs: t.entryTs + 123,
          durationMs: 3 * 86_400_000 + 4 * 3_600_000 + 5 * 60_000 + 6_007,
        }));
      const path = await writeHtmlReport({ ...base, trades }, join(dir, 'wide-trades.html'), {
        settleAsset: 'USDT',
      });
      const open = await openPage(path, { width: 1024, height: 900 });
      try {
        await open.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
        const rights = [
          ...(await rightEdges(open, 'table.trades')),
          ...(await rightEdges(open, 'table.trades tr:first-child > *:last-child')),
        ];
        for (const r of rights) expect(r.right, `${r.at}, window 1024 px`).toBeLessThanOrEqual(1024 - 24);
        expect(await open.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1024);
        // Still a table a screen reader walks by its column headers, which stay on top as it scrolls.
        expect(await open.page.locator('table.trades thead th').count()).toBe(13);
        const table = await open.page.locator('table.trades').boundingBox();
        await open.page.evaluate(`window.scrollTo(0, ${Math.round(table!.y + table!.height / 2)})`);
        await open.page.waitForTimeout(200);
        const header = await open.page.locator('table.trades thead th').first().boundingBox();
        expect(Math.round(header!.y), 'trade list header row at the top of the window').toBe(0);
      } finally {
        await open.close();
      }
    }, 90_000);

    it('fits the By-sym table in a 1024 px laptop window, long syms and n/a reasons wrapped, with no sideways scroll', async () => {
      // Perpetuals' long names, a sym without closed trades (win rate n/a and why) and a run whose
      // starting equity was not positive (return contribution n/a and why): its widest rows.
      const base = aBacktestResult(60);
      const figures = (trades: number) => ({
        trades,
        winRate: trades === 0 ? null : 0.4567,
        netPnl: D('-1234567.891'),
        fees: D('-0.000123456789'),
        returnContribution: null,
        exposureTime: 0.9876,
      });
      const syms = ['BINANCE_PERP_1000SHIB_USDT', 'BINANCE_PERP_1000PEPE_USDT', 'OKX_PERP_1000FLOKI_USDT'];
      const symBreakdown = {
        syms: syms.map((sym, i) => ({ sym, ...figures(i * 1234) })),
        total: figures(3702),
      };
      const path = await writeHtmlReport({ ...base, symBreakdown }, join(dir, 'wide-syms.html'), {
        settleAsset: 'USDT',
      });
      const open = await openPage(path, { width: 1024, height: 900 });
      try {
        await open.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
        const rights = [
          ...(await rightEdges(open, 'table.syms')),
          ...(await rightEdges(open, 'table.syms tr > *:last-child')),
        ];
        expect(rights.length).toBe(6);
        for (const r of rights) expect(r.right, `${r.at}, window 1024 px`).toBeLessThanOrEqual(1024 - 24);
        expect(await open.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1024);
        // Still a table of one row per sym and the run's, read by its column headers.
        expect(await open.page.locator('table.syms thead th').count()).toBe(7);
        expect(await open.page.locator('table.syms tbody tr').count()).toBe(4);
        // And printed on A4 (718 px of content).
        await open.page.emulateMedia({ media: 'print' });
        await open.page.setViewportSize({ width: 718, height: 1000 });
        await open.page.waitForTimeout(300);
        for (const r of await rightEdges(open, 'table.syms, table.syms tr > *:last-child'))
          expect(r.right, `${r.at} on the A4 page`).toBeLessThanOrEqual(718);
      } finally {
        await open.close();
      }
    }, 90_000);

    it('prints on A4 (718 px of content) without cutting charts or the trade table off at the right edge', async () => {
      const open = await openPage(reportPath, { width: 1280, height: 900 });
      try {
        await open.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
        await open.page.emulateMedia({ media: 'print' });
        await open.page.setViewportSize({ width: 718, height: 1000 });
        await open.page.waitForTimeout(300);
        const rights = [
          ...(await rightEdges(open, '.chart > div')),
          ...(await rightEdges(open, 'table.trades')),
          ...(await rightEdges(open, 'table.trades tr:first-child > *:last-child')),
        ];
        expect(rights.length).toBeGreaterThan(4);
        for (const r of rights) expect(r.right, `${r.at} on the A4 page`).toBeLessThanOrEqual(718);
      } finally {
        await open.close();
      }
    }, 90_000);

    it('sizes the charts for paper before printing, whatever the window, and follows the window again after', async () => {
      // A real print lays the page out at the paper's width without resizing anything first: the
      // charts must already fit when `beforeprint` has run.
      const open = await openPage(reportPath, { width: 1280, height: 900 });
      try {
        await open.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
        await open.page.evaluate("window.dispatchEvent(new Event('beforeprint'))");
        const printed = await rightEdges(open, '.chart > div');
        const boxes = await rightEdges(open, '.chart');
        printed.forEach((p, i) => {
          const left = boxes[i]!.right - 1280 + 2 * 24; // the box spans the window less the body's padding
          expect(p.right - left, `${p.at} width for print`).toBeLessThanOrEqual(PRINT_CHART_WIDTH);
        });
        expect(open.errors).toEqual([]);
        await open.page.evaluate("window.dispatchEvent(new Event('afterprint'))");
        await open.page.waitForTimeout(300);
        const after = await rightEdges(open, '.chart > div');
        after.forEach((a, i) => {
          expect(a.right, `${a.at} after printing`).toBe(boxes[i]!.right);
        });
      } finally {
        await open.close();
      }
    }, 90_000);

    it('does not stack the statistics row headers on top of each other when the page scrolls', async () => {
      const open = await openPage(reportPath, { width: 1280, height: 600 });
      try {
        await open.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
        const table = await open.page.locator('table.stats').boundingBox();
        await open.page.evaluate(`window.scrollTo(0, ${Math.round(table!.y + table!.height / 2)})`);
        await open.page.waitForTimeout(200);
        const headers = open.page.locator('table.stats th');
        let atTop = 0;
        for (let i = 0; i < (await headers.count()); i++)
          if (Math.round((await headers.nth(i).boundingBox())?.y ?? -1) === 0) atTop++;
        // Each `th` was `position: sticky; top: 0`, so every row header already scrolled past piled up at y = 0.
        expect(atTop, 'stats row headers drawn at the very top of the window').toBeLessThanOrEqual(1);
      } finally {
        await open.close();
      }
    }, 90_000);

    it('states the time zone and the currency of the chart axes', async () => {
      const open = await openPage(reportPath);
      try {
        await open.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
        const titles = await open.page.locator('#charts .chart-title').allInnerTexts();
        expect(titles).toEqual([
          expect.stringMatching(/^BINANCE_PERP_BTC_USDT price \[USDT\] .*, time in UTC$/),
          'Equity [USDT], time in UTC',
          'Drawdown [%], time in UTC',
        ]);
      } finally {
        await open.close();
      }
    }, 90_000);
  },
);
