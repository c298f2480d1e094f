import type { GapEvent, MarketEvent } from '../../core/model/index.ts';
import type { BacktestRunOptions } from './backtest-run-options.ts';

/** One outage of a recording: the gaps of its syms over the same span (one drop and reconnect). */
interface Outage {
  readonly first: GapEvent;
  readonly syms: Set<string>;
}

interface GapTally {
  /** The outages by span, in the order first read. */
  readonly outages: Map<string, Outage>;
  readonly seen: Set<string>;
}

/**
 * The gaps a run's recordings hold (a recorder lost its connection: market data between a gap's
 * `fromTs` and `ts` was missed) inside the replay window, per recording: how many and the first,
 * for the result's `meta.warnings`, so a hole is not taken for a quiet market unsaid.
 */
export class RecordingGaps {
  readonly #files = new Map<string, GapTally>();

  /** @param window - the replay window: a gap wholly outside it is not counted */
  constructor(private readonly window: BacktestRunOptions['window']) {}

  /**
   * Counts a gap read from a recording; the same gap read again (a file listed twice) counts once.
   * @param file - the recording
   * @param gap - the gap event
   */
  note(file: string, gap: GapEvent): void {
    if (gap.ts < (this.window?.from ?? Number.NEGATIVE_INFINITY)) return;
    if (gap.fromTs >= (this.window?.to ?? Number.POSITIVE_INFINITY)) return;
    const key = `${gap.sym}|${gap.fromTs}|${gap.ts}|${gap.recvTs}`;
    const tally = this.#files.get(file) ?? { outages: new Map<string, Outage>(), seen: new Set<string>() };
    this.#files.set(file, tally);
    if (tally.seen.has(key)) return;
    tally.seen.add(key);
    // The gaps one drop and reconnect wrote, one per sym, span the same stretch: one outage.
    const span = `${gap.fromTs}|${gap.ts}`;
    const outage = tally.outages.get(span);
    if (outage === undefined) tally.outages.set(span, { first: gap, syms: new Set([gap.sym]) });
    else outage.syms.add(gap.sym);
  }

  /**
   * A recording's events passed on unchanged, each gap among them counted as it goes by: the same
   * count whether they come from the file or from its event cache.
   * @param file - the recording
   * @param source - its market events in batches
   * @returns the same batches
   */
  async *counting(
    file: string,
    source: AsyncIterable<readonly MarketEvent[]>,
  ): AsyncGenerator<readonly MarketEvent[]> {
    for await (const batch of source) {
      for (const event of batch) if (event.kind === 'gap') this.note(file, event);
      yield batch;
    }
  }

  /**
   * One sentence per recording with gaps: how many outages (the gaps of several syms over one
   * span are one), and the first with its syms.
   * @param recordings - the run's recordings, in the order the warnings name them
   * @returns e.g. `recording a.jsonl: market data was missed 1 time while it was recorded (its connection dropped), for BTC from 2025-01-06T00:01:00.000Z to 2025-01-06T00:01:03.000Z (3 s); the run replayed the hole as a market without events`
   */
  warnings(recordings: readonly string[]): string[] {
    return [...new Set(recordings)].flatMap((file) => {
      const tally = this.#files.get(file);
      const earliest = tally?.outages.values().next().value;
      if (tally === undefined || earliest === undefined) return [];
      const { first } = earliest;
      const count = tally.outages.size;
      const span = `for ${[...earliest.syms].join(', ')} from ${new Date(first.fromTs).toISOString()} to ${new Date(first.ts).toISOString()} (${(first.ts - first.fromTs) / 1000} s)`;
      const times =
        count === 1
          ? `1 time while it was recorded (${first.reason}), ${span}`
          : `${count} times while it was recorded (${first.reason}), the first ${span}`;
      const holes = count === 1 ? 'the hole' : 'each hole';
      return [
        `recording ${file}: market data was missed ${times}; the run replayed ${holes} as a market without events`,
      ];
    });
  }
}
