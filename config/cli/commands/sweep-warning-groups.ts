/**
 * What may differ between the rows' copies of one warning: a date or time as warnings write them
 * (`2024-03-04T16:00:00.000Z`, `2024-03-04 13:00:00.005`, `2024-03-04`), or a number (`46`, `0.18`).
 */
const VARYING = /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?|\d+(?:\.\d+)?/g;

/** One warning as a sweep prints it under its table: once, with how many rows it concerns. */
export interface SweepTextGroup {
  /** The warning, each part that differs between the rows shown as its range (`38–52`). */
  readonly text: string;
  /** How many rows gave it. */
  readonly rows: number;
}

/** The values a warning's varying parts took in the rows, slot by slot. */
interface Shape {
  readonly literals: readonly string[];
  readonly slots: Set<string>[];
  rows: number;
}

/**
 * Groups the warnings of a sweep's rows that differ only in their numbers, dates and times (a
 * position held across 38 funding times in one row, 46 in another) so each is said once: the
 * rows' warnings are not one text each, and matching them exactly printed near-identical lines,
 * one per row. A part that differs is shown as its range, lowest–highest.
 * @param perRow - each row's warnings (a row's copies of one warning count it once)
 * @returns the groups in the order first met
 */
export function groupSweepTexts(perRow: readonly (readonly string[])[]): SweepTextGroup[] {
  const shapes = new Map<string, Shape>();
  for (const texts of perRow) {
    const met = new Set<string>();
    for (const text of texts) {
      const key = text.replace(VARYING, '#');
      const values = text.match(VARYING) ?? [];
      let shape = shapes.get(key);
      if (shape === undefined) {
        shape = { literals: text.split(VARYING), slots: values.map(() => new Set<string>()), rows: 0 };
        shapes.set(key, shape);
      }
      for (const [i, value] of values.entries()) shape.slots[i]?.add(value);
      if (!met.has(key)) shape.rows += 1;
      met.add(key);
    }
  }
  return [...shapes.values()].map((shape) => ({
    text: shape.literals
      .map((literal, i) => literal + (i < shape.slots.length ? range(shape.slots[i] ?? new Set()) : ''))
      .join(''),
    rows: shape.rows,
  }));
}

/** `46`, or `38–52` when the rows differ (numbers by value, dates and times by their text). */
function range(values: ReadonlySet<string>): string {
  const sorted = [...values].sort((a, b) =>
    /^\d+(?:\.\d+)?$/.test(a) && /^\d+(?:\.\d+)?$/.test(b) ? Number(a) - Number(b) : a.localeCompare(b),
  );
  const low = sorted[0] ?? '';
  const high = sorted[sorted.length - 1] ?? '';
  return low === high ? low : `${low}–${high}`;
}
