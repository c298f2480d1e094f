import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { type PaperVenue, startPaperVenue, syntheticFeed } from '../../backtest/paper-venue/index.ts';
import { SYNTHETIC_MARKETS } from '../../backtest/synthetic/index.ts';
import { instrumentSpecsOf } from '../../config/compose/instrument-specs.ts';
import { runLogger } from '../../config/compose/run-logger.ts';
import { runVenueSession } from '../../config/compose/venue-session.ts';
import type { VenueSessionOutcome } from '../../config/compose/venue-session-options.ts';
import { loadValidConfig } from '../../config/loader/index.ts';
import type { KeelConfig } from '../../config/schema/index.ts';
import type { Scheduler, StrategySlot } from '../../core/kernel/index.ts';
import { D, type InstrumentSpec } from '../../core/model/index.ts';

/** What a lockstep session on a SYNTHETIC paper venue runs. */
export interface LockstepSessionRun {
  readonly config: KeelConfig;
  readonly instruments: readonly InstrumentSpec[];
  readonly slots: readonly StrategySlot[];
  /** Names the session's (silent) logger. */
  readonly name: string;
  /** Stops the session after this long; without it, the session runs until its feed ends or a stop. */
  readonly durationMs?: number;
  /** The lockstep speed; 5 by default. */
  readonly lockstepSpeed?: number;
  /** Whether the session stops on SIGINT / SIGTERM / SIGHUP as `keel run` does; false by default. */
  readonly handleSignals?: boolean;
  /** The session's clock and timers (as `keel run` makes them, see `paperScheduler`); the wall clock's by default. */
  readonly scheduler?: Scheduler;
}

/**
 * Paper venues releasing SYNTHETIC market data (seed 42) of one sym in lockstep, portfolio `main`
 * (keys `k` / `s`, 100 000 USDT), the touch fill model; closed after each test of the file this is
 * called in.
 * @returns a function starting one venue for the given instruments and sym
 */
export function lockstepSyntheticVenues(): (
  instruments: readonly InstrumentSpec[],
  sym: string,
) => Promise<PaperVenue> {
  const venues: PaperVenue[] = [];
  afterEach(async () => {
    for (const venue of venues.splice(0)) await venue.close();
  });
  return async (instruments, sym) => {
    const venue = await startPaperVenue({
      instruments: [...instruments],
      portfolios: [
        { portfolioId: 'main', apiKey: 'k', apiSecret: 's', startingBalances: { USDT: D(100_000) } },
      ],
      fillModel: 'touch',
      feed: syntheticFeed({
        seed: 42,
        startTime: Date.now(),
        markets: SYNTHETIC_MARKETS.filter((m) => m.sym === sym),
      }),
      pacing: { mode: 'lockstep' },
    });
    venues.push(venue);
    return venue;
  };
}

/**
 * Runs a paper session against a paper venue in lockstep (5x unless told), for a fixed time or
 * until its feed ends, without signal handlers unless told.
 * @param venue - the venue from {@link lockstepSyntheticVenues}
 * @param run - the config, instruments, strategies, logger name and duration
 * @returns the session's outcome
 */
export function runLockstepSession(venue: PaperVenue, run: LockstepSessionRun): Promise<VenueSessionOutcome> {
  return runVenueSession({
    config: run.config,
    mode: 'paper',
    slots: run.slots,
    instruments: run.instruments,
    logger: runLogger(run.name, 'silent'),
    venue: {
      restUrl: venue.restUrl,
      privateWsUrl: venue.privateWsUrl,
      marketDataWsUrl: venue.marketDataWsUrl,
      apiKey: 'k',
      apiSecret: 's',
      brokerClientId: 'main',
      label: 'paper',
    },
    synthetic: true,
    sessionClock: () => venue.now(),
    lockstep: true,
    lockstepSpeed: run.lockstepSpeed ?? 5,
    ...(run.durationMs === undefined ? {} : { durationMs: run.durationMs }),
    handleSignals: run.handleSignals ?? false,
    ...(run.scheduler === undefined ? {} : { scheduler: run.scheduler }),
    fillModel: { name: 'touch', description: 'touch' },
  });
}

/**
 * Writes and loads the config of a lockstep paper session in `dir`: one strategy slot `id` (a
 * `market-maker` entry the test's own plugin replaces) on `sym`, SYNTHETIC seed 42, silent logs,
 * its result and report in `dir`.
 * @param dir - a temporary directory
 * @param sym - the one instrument
 * @param id - the strategy slot's id
 * @returns the loaded config and its instruments
 */
export function aLockstepConfig(
  dir: string,
  sym: string,
  id: string,
): { readonly config: KeelConfig; readonly instruments: readonly InstrumentSpec[] } {
  const file = join(dir, 'lockstep.yaml');
  writeFileSync(
    file,
    `mode: paper
instruments: [${sym}]
strategies:
  - { id: ${id}, use: market-maker }
paper: { lockstep: true, source: { kind: synthetic, seed: 42 } }
logging: { level: error }
report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(join(dir, 'report.html'))} }
`,
  );
  const { config } = loadValidConfig(file);
  return { config, instruments: instrumentSpecsOf(config.instruments) };
}
