import { EquitySampler } from '../../backtest/runner/index.ts';
import { asNumber, type Dec } from '../../core/model/index.ts';
import type { SessionStartingCoins } from './session-starting-coins.ts';

/**
 * The equity sampling step of a live or paper session, ms (Keel's choice): one sample a second
 * of the session's time at most. Its recording's header states it, so a backtest of the recording
 * samples alike.
 */
export const SESSION_EQUITY_SAMPLE_MS = 1_000;

/** A session's equity sampler, the start it waits for, and the equity it started from. */
export interface SessionEquitySampler {
  readonly sampler: EquitySampler;
  /**
   * Starts the curve at `ts` unless it started already, the clock still reads 0, or (unless
   * `force`) a starting coin has no price yet.
   * @param ts - the session clock, epoch ms
   * @param force - start even before every starting coin has its price (the session's end)
   */
  startAt(ts: number, force?: boolean): void;
  /**
   * The session's equity when its curve started (every starting coin at its first price);
   * undefined before, or when the curve was only started by force at the end.
   */
  readonly startEquity: Dec | undefined;
  /** @returns the session's equity now: the kernel's, plus the starting coins the venue's equity does not hold yet */
  equity(): Dec;
}

/**
 * The equity sampler of a live or paper session (every {@link SESSION_EQUITY_SAMPLE_MS} at most), started at the
 * session clock, except that a paper venue's clock reads 0 until it releases its first event:
 * then the curve starts at that event (a start at 0 made a 56-year curve). A paper session
 * starting with coins besides its cash starts its curve once each coin has its first price, and
 * counts the coins at that price until the venue's equity holds them (see {@link SessionStartingCoins}).
 * The session tells the sampler of each event before the kernel applies it (`beforeEvent`), so
 * its curve keeps what a backtest's keeps: each bucket's low, high and equity at its last event.
 * @param equity - reads the kernel's equity; each read also goes to `onSample`
 * @param onSample - sees each equity read (the metrics gauge)
 * @param coins - the session's starting coins, when it has some
 * @returns the sampler, its start and the equity it started from
 */
export function sessionEquitySampler(
  equity: () => Dec,
  onSample: (equity: Dec) => void,
  coins?: SessionStartingCoins,
): SessionEquitySampler {
  const read = coins === undefined ? equity : () => equity().plus(coins.unreportedWorth());
  const exact = (): Dec => {
    const value = read();
    onSample(value);
    return value;
  };
  // The exact equity read as the estimate too: the sampler then takes its samples and closes its
  // buckets when told of the next event (`beforeEvent`), as a backtest's sampler does.
  const sampler = new EquitySampler(SESSION_EQUITY_SAMPLE_MS, exact, { estimate: () => asNumber(exact()) });
  let started = false;
  let startEquity: Dec | undefined;
  return {
    sampler,
    startAt: (ts, force = false) => {
      if (started || ts <= 0) return;
      const ready = coins?.allPriced ?? true;
      if (!ready && !force) return;
      sampler.start(ts);
      started = true;
      if (ready) startEquity = read();
    },
    get startEquity() {
      return startEquity;
    },
    equity: read,
  };
}
