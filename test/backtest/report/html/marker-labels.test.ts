// Fill-marker labels at the chart's zoom: the page's own function (MARKER_LABELS_SCRIPT, the text
// the report inlines) evaluated here, so these properties hold for what the browser runs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MARKER_LABELS_FUNCTION,
  MARKER_LABELS_SCRIPT,
} from '../../../../backtest/report/html/marker-labels.ts';

interface Range {
  readonly from: number;
  readonly to: number;
}
type LabelledMarkers = (
  positions: readonly number[],
  range: Range,
  width: number,
  spacing: number,
  clearance: number,
) => boolean[];

const labelledMarkers = new Function(
  `${MARKER_LABELS_SCRIPT}\nreturn ${MARKER_LABELS_FUNCTION};`,
)() as LabelledMarkers;

/** A marker's x in the plot, in CSS pixels, as the function places it. */
const xOf = (position: number, range: Range, width: number) =>
  ((position - range.from) * width) / (range.to - range.from);

const aCase = fc.record({
  // Few distinct bars, so markers share bars and crowd each other.
  positions: fc
    .array(fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 40 })), { maxLength: 300 })
    .map((positions) => positions.sort((a, b) => a - b)),
  range: fc
    .tuple(fc.double({ min: -100, max: 5000, noNaN: true }), fc.double({ min: 0.5, max: 5000, noNaN: true }))
    .map(([from, span]) => ({ from, to: from + span })),
  width: fc.integer({ min: 1, max: 3000 }),
  spacing: fc.double({ min: 1, max: 300, noNaN: true }),
  clearance: fc.double({ min: 0, max: 200, noNaN: true }),
});

/** Whether a label centred at x lies whole in the plot. */
const inside = (x: number, width: number, spacing: number) => x >= spacing / 2 && x <= width - spacing / 2;

describe('labelledMarkers', () => {
  it('labels only markers whose label lies whole in the plot, never two closer than the spacing', () => {
    fc.assert(
      fc.property(aCase, ({ positions, range, width, spacing, clearance }) => {
        const labelled = labelledMarkers(positions, range, width, spacing, clearance);
        expect(labelled).toHaveLength(positions.length);
        const xs = positions.filter((_, i) => labelled[i]).map((p) => xOf(p, range, width));
        for (const x of xs)
          expect(inside(x, width, spacing), `label at x ${x} inside 0..${width}`).toBe(true);
        for (let i = 1; i < xs.length; i++) expect(xs[i]! - xs[i - 1]!).toBeGreaterThanOrEqual(spacing);
      }),
    );
  });

  it('keeps a label clear of every other bar\u2019s marker', () => {
    fc.assert(
      fc.property(aCase, ({ positions, range, width, spacing, clearance }) => {
        const labelled = labelledMarkers(positions, range, width, spacing, clearance);
        positions.forEach((p, i) => {
          if (!labelled[i]) return;
          const x = xOf(p, range, width);
          for (const q of positions.filter((q) => q !== p))
            expect(
              Math.abs(xOf(q, range, width) - x),
              `bar ${q} near labelled bar ${p}`,
            ).toBeGreaterThanOrEqual(clearance);
        });
      }),
    );
  });

  it('hides a visible marker\u2019s label only where it would overlap a shown label or another bar\u2019s marker', () => {
    fc.assert(
      fc.property(aCase, ({ positions, range, width, spacing, clearance }) => {
        const labelled = labelledMarkers(positions, range, width, spacing, clearance);
        const shown = positions.filter((_, i) => labelled[i]).map((p) => xOf(p, range, width));
        positions.forEach((p, i) => {
          const x = xOf(p, range, width);
          if (labelled[i] || !inside(x, width, spacing)) return;
          const nearLabel = shown.some((s) => Math.abs(s - x) < spacing);
          const nearMarker = positions.some((q) => q !== p && Math.abs(xOf(q, range, width) - x) < clearance);
          expect(nearLabel || nearMarker, `hidden label of the marker at x ${x}`).toBe(true);
        });
      }),
    );
  });

  it('labels every marker when they all lie inside the plot, on bars of their own, far enough apart', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 200 }),
        fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 100 }),
        (pixelsPerBar, spacing, clearance, extraGaps) => {
          // Gaps of at least both distances, in whole bars; x = (position + margin) * pixelsPerBar exactly.
          const gap = Math.max(1, Math.ceil(Math.max(spacing, clearance) / pixelsPerBar));
          let position = 0;
          const positions = extraGaps.map((extra, i) => (position += (i === 0 ? 0 : gap) + extra));
          // Half a label's room (whole bars) on either side of the first and last.
          const margin = Math.ceil(spacing / 2 / pixelsPerBar);
          const span = positions[positions.length - 1]! + 2 * margin;
          const width = span * pixelsPerBar;
          const range = { from: -margin, to: span - margin };
          const labelled = labelledMarkers(positions, range, width, spacing, clearance);
          expect(labelled.every(Boolean)).toBe(true);
        },
      ),
    );
  });

  it('labels none of 150 fills crowded into a plot, and all of a stretch zoomed into', () => {
    const positions = Array.from({ length: 150 }, (_, i) => 5 + 20 * i);
    const fitAll = labelledMarkers(positions, { from: 0, to: 3000 }, 1000, 90, 60); // 6.7 px apart
    expect(fitAll.filter(Boolean)).toEqual([]);
    const zoomed = labelledMarkers(positions, { from: 995, to: 1195 }, 1000, 90, 60); // 100 px apart
    expect(positions.filter((_, i) => zoomed[i])).toEqual([
      1005, 1025, 1045, 1065, 1085, 1105, 1125, 1145, 1165, 1185,
    ]);
  });

  it('labels one of the markers on one bar', () => {
    expect(labelledMarkers([5, 5, 5], { from: 0, to: 10 }, 1000, 90, 60)).toEqual([true, false, false]);
  });

  it('labels nothing in an empty range or a plot of no width', () => {
    expect(labelledMarkers([1, 2], { from: 5, to: 5 }, 800, 50, 30)).toEqual([false, false]);
    expect(labelledMarkers([1, 2], { from: 0, to: 10 }, 0, 50, 30)).toEqual([false, false]);
  });
});
