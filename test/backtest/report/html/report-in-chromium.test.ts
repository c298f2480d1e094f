import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHtmlReport } from '../../../../backtest/report/index.ts';
import { aBacktestResult, withAlgoOrdersAndDenials } from '../../../kit/backtest-result-builders.ts';
import { CHROMIUM_PATH, hasChromium, openInChromium } from '../../../kit/headless-chromium.ts';
import { type RgbaImage, readPng } from '../../../kit/png-reader.ts';

interface ChartBox {
  readonly id: string;
  readonly painted: number;
  readonly rect: readonly [number, number, number, number];
}

function chartBoxes(dom: string): ChartBox[] {
  const boxes: ChartBox[] = [];
  for (const tag of dom.match(/<div class="chart"[^>]*>/g) ?? []) {
    const id = /id="([^"]+)"/.exec(tag)?.[1] ?? '';
    const painted = Number(/data-painted-pixels="(\d+)"/.exec(tag)?.[1] ?? 'NaN');
    const rect = (/data-rect="([^"]+)"/.exec(tag)?.[1] ?? '').split(',').map(Number) as [
      number,
      number,
      number,
      number,
    ];
    boxes.push({ id, painted, rect });
  }
  return boxes;
}

/** An attribute of the chart box `id` in the page's DOM. */
function attributeOf(dom: string, id: string, name: string): string {
  const tag = new RegExp(`<div class="chart"[^>]*id="${id}"[^>]*>`).exec(dom)?.[0] ?? '';
  return new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1] ?? '';
}

/** Share of pixels in the box that are not near-white, and how many are the price line's blue. */
function inkIn(image: RgbaImage, [x0, y0, w, h]: readonly number[]): { ink: number; blue: number } {
  let ink = 0;
  let blue = 0;
  let total = 0;
  for (let y = y0!; y < Math.min(image.height, y0! + h!); y++) {
    for (let x = x0!; x < Math.min(image.width, x0! + w!); x++) {
      const i = (y * image.width + x) * 4;
      const [r, g, b] = [image.pixels[i]!, image.pixels[i + 1]!, image.pixels[i + 2]!];
      total++;
      if (r < 230 || g < 230 || b < 230) ink++;
      if (r < 90 && g > 70 && g < 130 && b > 220) blue++;
    }
  }
  return { ink: total === 0 ? 0 : ink / total, blue };
}

describe('HTML report in headless chromium', () => {
  let dir = '';
  let reportPath = '';
  let brokenPath = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keel-report-'));
    reportPath = await writeHtmlReport(
      withAlgoOrdersAndDenials(aBacktestResult(300)),
      join(dir, 'report.html'),
      {
        settleAsset: 'USDT',
      },
    );
    brokenPath = await writeHtmlReport(aBacktestResult(50), join(dir, 'broken.html'), {
      chartLibrarySource: 'throw new Error("chart library failed to load");',
    });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.skipIf(!hasChromium)(
    `draws price, equity and drawdown charts with no console errors (skipped when ${CHROMIUM_PATH} is missing)`,
    async () => {
      const open = await openInChromium(reportPath);
      try {
        await open.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
        const dom = await open.page.content();
        expect(dom).toMatch(/<body data-ready="true" data-errors="0">/);
        expect(dom).toContain('<div class="errors" id="keel-errors" hidden=""></div>');
        expect(open.errors).toEqual([]);
        const boxes = chartBoxes(dom);
        expect(boxes.map((b) => b.id)).toEqual(['price-chart-0', 'equity-chart', 'drawdown-chart']);
        for (const box of boxes) expect(box.painted, `${box.id} painted pixels`).toBeGreaterThan(1000);

        const image = readPng(await open.page.screenshot());
        expect([image.width, image.height]).toEqual([1280, 2000]);
        for (const box of boxes) {
          expect(box.rect[1]! + box.rect[3]!, `${box.id} lies inside the screenshot`).toBeLessThanOrEqual(
            2000,
          );
          const { ink } = inkIn(image, box.rect);
          expect(ink, `${box.id} is not blank`).toBeGreaterThan(0.02);
        }
        expect(inkIn(image, boxes[0]!.rect).blue, 'the price line is drawn').toBeGreaterThan(300);

        // The stacked charts share one timeline and one price-scale width: the run's first and
        // last time sit at the same x on each (they differed by the scales' widths, ~13 px).
        const scaleWidths = boxes.map((b) => attributeOf(dom, b.id, 'data-price-scale-width'));
        expect(new Set(scaleWidths).size, scaleWidths.join(' ')).toBe(1);
        expect(Number(scaleWidths[0])).toBeGreaterThan(0);
        const ends = boxes.map((b) => attributeOf(dom, b.id, 'data-timeline-x'));
        expect(ends[0]).toMatch(/^\d+\.\d,\d+\.\d$/);
        expect(new Set(ends).size, ends.join(' ')).toBe(1);
      } finally {
        await open.close();
      }
    },
  );

  it.skipIf(!hasChromium)(
    `catches a page whose chart script fails, so the check above can fail (skipped when ${CHROMIUM_PATH} is missing)`,
    async () => {
      const open = await openInChromium(brokenPath);
      try {
        await open.page.waitForSelector('body:not([data-errors="0"])', { timeout: 60_000 });
        const dom = await open.page.content();
        expect(dom).not.toContain('data-ready="true"');
        expect(dom).toMatch(/data-errors="[1-9]/);
        expect(dom).toContain('Uncaught Error: chart library failed to load');
        expect(open.errors.join('\n')).toContain('chart library failed to load');
      } finally {
        await open.close();
      }
    },
  );
});
