// Reviewer a11y, session 31: fill-marker labels ("B 1 @ 40123.4") are text drawn on the white
// chart; WCAG 2.x 1.4.3 asks 4.5:1 for text of this size.
import { describe, expect, it } from 'vitest';
import { chartData } from '../../../../backtest/report/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

describe('fill marker labels', () => {
  it('are readable on the white chart background (contrast >= 4.5:1)', () => {
    const markers = chartData(aBacktestResult(300)).prices.flatMap((p) => p.markers);
    const labelled = markers.filter((m) => m.text !== '');
    expect(labelled.length).toBeGreaterThan(0);
    for (const colour of new Set(labelled.map((m) => m.color)))
      expect(Number(contrast(colour, '#ffffff').toFixed(2)), `${colour} on #ffffff`).toBeGreaterThanOrEqual(
        4.5,
      );
  });
});
