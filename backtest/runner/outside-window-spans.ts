import type { MarketEvent } from '../../core/model/index.ts';

/** Event times of the first and last event of a sym the replay window left out. */
export interface SymSpan {
  readonly first: number;
  readonly last: number;
}

/**
 * The span of each sym's events the replay window left out (times as the window places them: a
 * bar's open time, another event's receive time), so a warning of a sym the run got no data of
 * can say the recordings held some, outside the window, rather than none.
 */
export class OutsideWindowSpans {
  readonly #spans = new Map<string, SymSpan>();

  /**
   * Counts events left out of the window.
   * @param events - the events
   * @param timeOf - where the window places an event
   */
  note(events: readonly MarketEvent[], timeOf: (event: MarketEvent) => number): void {
    for (const event of events) {
      if (!('sym' in event)) continue;
      const t = timeOf(event);
      const span = this.#spans.get(event.sym);
      if (span === undefined) this.#spans.set(event.sym, { first: t, last: t });
      else if (t < span.first || t > span.last)
        this.#spans.set(event.sym, { first: Math.min(t, span.first), last: Math.max(t, span.last) });
    }
  }

  /**
   * @param sym - a sym
   * @returns the span of its events left out, undefined when none was
   */
  of(sym: string): SymSpan | undefined {
    return this.#spans.get(sym);
  }
}

/**
 * What the recordings held of a sym outside the replay window, as a warning of a sym the run got
 * no data of says it.
 * @param spans - the events the window left out
 * @param window - the replay window
 * @returns for a sym: `held data for that sym only outside the window (from … to …): from … to …`, or
 *   undefined when the window left none of it out
 */
export function outsideWindowText(
  spans: OutsideWindowSpans,
  window: { readonly from?: number; readonly to?: number } | undefined,
): (sym: string) => string | undefined {
  return (sym) => {
    const span = spans.of(sym);
    if (span === undefined || window === undefined) return undefined;
    const bounds = [
      ...(window.from === undefined ? [] : [`from ${iso(window.from)}`]),
      ...(window.to === undefined ? [] : [`to ${iso(window.to)}`]),
    ].join(' ');
    return `held data for that sym only outside the window (${bounds}): from ${iso(span.first)} to ${iso(span.last)}`;
  };
}

function iso(ts: number): string {
  return new Date(ts).toISOString();
}
