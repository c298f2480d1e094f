// Fill-marker labels as a reader sees them: a price chart with 150 fills smeared all 150 labels
// over each other at the whole-run zoom and could not be zoomed into. Now a label shows where it
// overlaps no other label or arrow at the zoom; the reader zooms with the wheel to read them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHtmlReport } from '../../../../backtest/report/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';
import { CHROMIUM_PATH, hasChromium, type OpenPage, openInChromium } from '../../../kit/headless-chromium.ts';
import { readPng } from '../../../kit/png-reader.ts';

/** 3000 hourly prices with a buy every 40 hours and a sell 20 hours after: 150 fills. */
const BARS = 3000;
const FILLS = 150;
const CHART = '#price-chart-0';

/** Pixels of the chart in the fill markers' green or red (arrows and their text, anti-aliased). */
async function markerInk(open: OpenPage): Promise<number> {
  const image = readPng(await open.page.locator(CHART).screenshot());
  let count = 0;
  for (let i = 0; i < image.pixels.length; i += 4) {
    const [r, g, b] = [image.pixels[i]!, image.pixels[i + 1]!, image.pixels[i + 2]!];
    if ((g > r + 40 && g > b + 40) || (r > g + 80 && r > b + 80)) count++;
  }
  return count;
}

const labelled = async (open: OpenPage) =>
  Number(await open.page.locator(CHART).getAttribute('data-labelled-markers'));

const nextFrame = (open: OpenPage) =>
  open.page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve(null)))');

describe.skipIf(!hasChromium)(
  `fill-marker labels of a price chart in headless chromium (skipped when ${CHROMIUM_PATH} is missing)`,
  () => {
    let dir = '';
    let reportPath = '';
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'keel-labels-'));
      const result = aBacktestResult(BARS);
      expect([...result.fills]).toHaveLength(FILLS);
      reportPath = await writeHtmlReport(result, join(dir, 'report.html'), { settleAsset: 'USDT' });
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('hides the labels of 150 fills at the whole-run zoom, shows them zoomed in with the wheel, hides them again on a double click', async () => {
      const open = await openInChromium(reportPath, { width: 1280, height: 1000 });
      try {
        await open.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
        expect(await labelled(open), 'labelled markers at the whole-run zoom').toBe(0);
        // 150 arrows paint about 6000 of these pixels; with their 150 labels (the old page) about 29 000.
        expect(await markerInk(open), 'marker ink at the whole-run zoom: arrows only').toBeLessThan(12_000);

        const box = await open.page.locator(CHART).boundingBox();
        if (box === null) throw new Error(`${CHART} is not laid out`);
        await open.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        for (let step = 0; step < 60 && (await labelled(open)) === 0; step++) {
          await open.page.mouse.wheel(0, -300);
          await nextFrame(open);
        }
        await nextFrame(open);
        expect(await labelled(open), 'labelled markers zoomed in').toBeGreaterThanOrEqual(3);

        await open.page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
        await nextFrame(open);
        expect(await labelled(open), 'labelled markers after a double click').toBe(0);
        expect(open.errors).toEqual([]);
        expect(await open.page.locator('body').getAttribute('data-errors')).toBe('0');
      } finally {
        await open.close();
      }
    });
  },
);
