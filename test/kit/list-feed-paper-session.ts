import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFeed, type PaperVenue, startPaperVenue } from '../../backtest/paper-venue/index.ts';
import type { RecordedMessage } from '../../backtest/recording/index.ts';
import { instrumentSpecsOf } from '../../config/compose/instrument-specs.ts';
import { lockstepReplayScheduler } from '../../config/compose/replay-schedulers.ts';
import type { VenueSessionOutcome } from '../../config/compose/venue-session-options.ts';
import { loadValidConfig } from '../../config/loader/index.ts';
import type { StrategySlot } from '../../core/kernel/index.ts';
import { D } from '../../core/model/index.ts';
import { runLockstepSession } from './lockstep-synthetic-sessions.ts';

/** A lockstep paper session of one strategy on BINANCE_PERP_BTC_USDT over hand-made quotes. */
export interface ListFeedPaperSession {
  /** The folder its config and result files go in. */
  readonly dir: string;
  /** The market data the venue releases, in order. */
  readonly quotes: readonly RecordedMessage[];
  readonly slot: StrategySlot;
  /** Names the session's (silent) logger. */
  readonly name: string;
  /** Config lines added to the paper config (e.g. a recording or shutdown section). */
  readonly extraYaml?: string;
  /** The lockstep speed; unpaced by default. */
  readonly lockstepSpeed?: number;
  /** Called with the venue before the session starts (to stop it at a release, say). */
  readonly beforeRun?: (venue: PaperVenue) => void;
  /**
   * Whether the session's clock follows event time as `keel run`'s does (its timers fire on the
   * venue's ticks); false = the wall clock's, the default.
   */
  readonly eventTime?: boolean;
}

/**
 * Runs such a session against a paper venue (portfolio `main`, keys `k` / `s`, 100 000 USDT, the
 * touch fill model) that handles stop signals as `keel run` does, then hands the outcome and the
 * venue (still open) to `after`, and closes the venue.
 * @param session - what to run
 * @param after - reads the outcome and the venue
 * @returns what `after` returns
 */
export async function withListFeedPaperSession<T>(
  session: ListFeedPaperSession,
  after: (outcome: VenueSessionOutcome, venue: PaperVenue) => T | Promise<T>,
): Promise<T> {
  const sym = 'BINANCE_PERP_BTC_USDT';
  const paperFile = join(session.dir, 'paper.yaml');
  writeFileSync(
    paperFile,
    `mode: paper
instruments: [${sym}]
strategies:
  - { id: ${session.slot.id}, use: market-maker }
paper: { lockstep: true, source: { kind: synthetic, seed: 42 } }
${session.extraYaml ?? ''}logging: { level: error }
report: { json: ${JSON.stringify(join(session.dir, 'paper.json'))}, html: ${JSON.stringify(join(session.dir, 'paper.html'))} }
`,
  );
  const loaded = loadValidConfig(paperFile);
  const instruments = instrumentSpecsOf(loaded.config.instruments);
  const venue = await startPaperVenue({
    instruments: [...instruments],
    portfolios: [
      { portfolioId: 'main', apiKey: 'k', apiSecret: 's', startingBalances: { USDT: D(100_000) } },
    ],
    fillModel: 'touch',
    feed: listFeed(session.quotes),
    pacing: { mode: 'lockstep' },
  });
  try {
    session.beforeRun?.(venue);
    const outcome = await runLockstepSession(venue, {
      config: loaded.config,
      instruments,
      slots: [session.slot],
      name: session.name,
      lockstepSpeed: session.lockstepSpeed ?? Number.POSITIVE_INFINITY,
      handleSignals: true,
      ...(session.eventTime === true
        ? { scheduler: lockstepReplayScheduler(session.quotes[0]?.recvTs ?? 0, () => venue.now()) }
        : {}),
    });
    return await after(outcome, venue);
  } finally {
    await venue.close();
  }
}
