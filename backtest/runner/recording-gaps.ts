import type { GapEvent, MarketEvent } from '../../core/model/index.ts';
import type { BacktestRunOptions } from './backtest-run-options.ts';

interface GapTally {
  count: number;
  readonly first: GapEvent;
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
    const tally = this.#files.get(file);
    if (tally === undefined) {
      this.#files.set(file, { count: 1, first: gap, seen: new Set([key]) });
      return;
    }
    if (tally.seen.has(key)) return;
    tally.seen.add(key);
    tally.count++;
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
   * One sentence per recording with gaps.
   * @param recordings - the run's recordings, in the order the warnings name them
   * @returns e.g. `recording a.jsonl: market data was missed 1 time while it was recorded (its connection dropped), for BTC from 2025-01-06T00:01:00.000Z to 2025-01-06T00:01:03.000Z (3 s); the run replayed the hole as a market without events`
   */
  warnings(recordings: readonly string[]): string[] {
    return [...new Set(recordings)].flatMap((file) => {
      const tally = this.#files.get(file);
      if (tally === undefined) return [];
      const { first } = tally;
      const span = `for ${first.sym} from ${new Date(first.fromTs).toISOString()} to ${new Date(first.ts).toISOString()} (${(first.ts - first.fromTs) / 1000} s)`;
      const times =
        tally.count === 1
          ? `1 time while it was recorded (${first.reason}), ${span}`
          : `${tally.count} times while it was recorded (${first.reason}), the first ${span}`;
      const holes = tally.count === 1 ? 'the hole' : 'each hole';
      return [
        `recording ${file}: market data was missed ${times}; the run replayed ${holes} as a market without events`,
      ];
    });
  }
}
