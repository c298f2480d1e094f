import type { Logger } from 'pino';
import type { Observable } from 'rxjs';
import type { UserEvent } from '../../core/model/index.ts';
import type { TimerPort } from '../../core/venue/index.ts';
import type { KeelConfig } from '../schema/index.ts';

/** What a session's ADL rank refresh reads and asks. */
export interface AdlRankRefreshInput {
  /** The session's User Data events (the execution client's). */
  readonly events: Observable<UserEvent>;
  /**
   * Reads the ranks from the venue and reports them as `adlRank` events
   * (`LiveExecutionClient.refreshAdlRank`).
   */
  readonly refresh: (sym?: string) => Promise<void>;
  /** Whether the venue monitors a sym for ADL (a perpetual): the others are never asked about. */
  readonly monitored: (sym: string) => boolean;
  /** The session's timer. */
  readonly timer: TimerPort;
  /** How often every open position's rank is read, ms; 0 = never, not even after a position change. */
  readonly everyMs: number;
  readonly logger: Logger;
}

/**
 * Keeps a session's ADL ranks current, as the simulated venue of a backtest does: the venue pushes
 * none, so they are read (GET /api/v1/adl/rank) for a sym each time one of its open positions
 * changes without stating its rank (a live venue's never does; Keel's paper venue states it), and
 * for every open position every `everyMs`. One read per sym at a time: a change while it is on
 * its way asks once more after it. A sym the venue says it does not monitor (401011) is not asked
 * about again; a failed read is logged at warn, once per sym.
 * @param input - events, the read, the timer and the interval
 * @returns stops the refresh
 */
export function refreshAdlRanks(input: AdlRankRefreshInput): () => void {
  if (input.everyMs === 0) return () => {};
  /** The open legs, `sym|positionSide`. */
  const open = new Set<string>();
  const unmonitored = new Set<string>();
  const warned = new Set<string>();
  const reading = new Map<string, boolean>();
  let stopped = false;
  const read = (sym: string | undefined): void => {
    const key = sym ?? '';
    if (reading.has(key)) {
      reading.set(key, true);
      return;
    }
    reading.set(key, false);
    input
      .refresh(sym)
      .catch((error: unknown) => {
        if ((error as { code?: unknown }).code === 401011 && sym !== undefined) unmonitored.add(sym);
        else if (!warned.has(key)) {
          warned.add(key);
          input.logger.warn(
            { sym, err: (error as Error).message },
            'ADL rank read failed: ctx.adlRank() keeps the last rank read until a later read succeeds',
          );
        }
      })
      .finally(() => {
        const again = reading.get(key) === true;
        reading.delete(key);
        if (again && !stopped) read(sym);
      });
  };
  const subscription = input.events.subscribe((event) => {
    if (event.kind !== 'position' || !input.monitored(event.position.sym)) return;
    const { sym, positionSide, positionQty, adlRank } = event.position;
    const leg = `${sym}|${positionSide}`;
    if (positionQty.isZero()) {
      open.delete(leg);
      return;
    }
    open.add(leg);
    if (adlRank === 0 && !unmonitored.has(sym)) read(sym);
  });
  let cancel: (() => void) | undefined;
  const arm = (): void => {
    cancel = input.timer.setTimer(() => {
      if ([...open].some((leg) => !unmonitored.has(leg.slice(0, leg.lastIndexOf('|'))))) read(undefined);
      arm();
    }, input.everyMs);
  };
  arm();
  return () => {
    stopped = true;
    subscription.unsubscribe();
    cancel?.();
  };
}

/**
 * How often a session reads its ADL ranks: `venue.adlRankRefreshMs` when the run names a venue
 * (live, or paper on an external venue); never on the embedded paper venue, whose Positions pushes
 * state the rank its sim gives each position when the sim gives it, as a backtest's venue does
 * (a read at another time could tell the strategies a rank the backtest of the recording never
 * shows them).
 * @param config - the run's config
 * @returns the interval, ms; 0 = never
 */
export function adlRankRefreshMsOf(config: Pick<KeelConfig, 'venue'>): number {
  return config.venue?.adlRankRefreshMs ?? 0;
}
