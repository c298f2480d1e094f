import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import {
  type FeedSource,
  type PaperVenue,
  recordingFeed,
  startPaperVenue,
  syntheticFeed,
} from '../../backtest/paper-venue/index.ts';
import { type RecordingDamage, readSessionHeader } from '../../backtest/recording/index.ts';
import {
  barOverlapWarnings,
  defaultFillModelFor,
  earlySpanWorkWarnings,
} from '../../backtest/runner/index.ts';
import type { FillModelName } from '../../backtest/sim/index.ts';
import { SYNTHETIC_MARKETS } from '../../backtest/synthetic/index.ts';
import type { Scheduler } from '../../core/kernel/index.ts';
import type { InstrumentSpec } from '../../core/model/index.ts';
import type { LoadedConfig } from '../loader/index.ts';
import type { PaperConfig } from '../schema/index.ts';
import { fillModelPreview } from './fill-model-preview.ts';
import { loggedRecordingDamage } from './logged-recording-damage.ts';
import { isAddressInUse, PortInUse } from './port-in-use.ts';
import { lockstepReplayScheduler, pacedReplayScheduler } from './replay-schedulers.ts';
import type { SessionFillModel } from './session-result.ts';
import { signatureArraysOf } from './signature-arrays.ts';
import {
  configLoanAdvice,
  fillModelOf,
  latencyOf,
  loanOptionsOf,
  subPortfolioMarkupOf,
} from './sim-models.ts';

/** The paper venue a paper run started, and what the session needs to know of it. */
export interface EmbeddedPaperVenue {
  readonly venue: PaperVenue;
  readonly synthetic: boolean;
  /** Resolves once the feed is exhausted. */
  readonly ended: Promise<void>;
  /** The fill model the venue matches with: its name, and its settings as reports state them. */
  readonly fillModel: SessionFillModel;
  /**
   * The fill model's name when the config chose none and the run picked it from the data, as a
   * backtest does (`bar` for a source that begins with bars only, else `queue`); undefined when
   * the config chose one.
   */
  readonly defaultedFillModel: FillModelName | undefined;
  /** Venue time of the source's first event: the session's time before the venue released any; undefined for an empty source. */
  readonly firstEventTime: number | undefined;
  /**
   * What the result must say of the source so far: recording lines skipped (how many of each
   * kind, the first), a source that failed before its end (the session ended there), and on the
   * bar fill model the coarser bars passed over for finer ones of the same sym and the bars matched
   * after the venue's own work inside their span (an event of the source stamped inside a bar, a
   * mark or another sym's bar, came first), as a backtest of the source says them.
   */
  readonly sourceWarnings: () => string[];
}

/**
 * The market source of a paper run: a recorded session (relative to the config file), SYNTHETIC
 * when its header says so, or the SYNTHETIC generator live, limited to the configured syms and
 * ending after `paper.source.durationSec` of market time when set.
 * @param paper - the paper settings
 * @param loaded - the config (for its directory and instruments)
 * @param startTime - venue time of a synthetic session's first event
 * @param damage - counts the recording's lines that cannot be read or decoded (skipped)
 * @returns the source, whether it is synthetic, and the recording's path
 * @throws Error (its cause the RecordingFormatError) when the recording cannot be read or has no
 *   valid header line
 */
export async function paperFeedOf(
  paper: PaperConfig,
  loaded: LoadedConfig,
  startTime: number,
  damage: RecordingDamage,
): Promise<{ readonly feed: FeedSource; readonly synthetic: boolean; readonly recording?: string }> {
  if (paper.source.kind === 'recording') {
    const path = resolve(loaded.dir, paper.source.path);
    // A generated session (or a CSV imported with --synthetic) stays SYNTHETIC when replayed on
    // paper: the session's summary, its own recording and every report of it say so.
    const header = await readSessionHeader(path).catch((error: unknown) => {
      throw new Error(
        `${loaded.file}: paper.source.path: cannot read the recording ${path}: ${(error as Error).message}`,
        { cause: error },
      );
    });
    return { feed: recordingFeed(path, damage.note), synthetic: header.synthetic, recording: path };
  }
  const syms = new Set(loaded.config.instruments.map((i) => i.sym));
  const markets = SYNTHETIC_MARKETS.filter((m) => syms.has(m.sym));
  return {
    feed: syntheticFeed({
      seed: paper.source.seed,
      startTime,
      ...(paper.source.durationSec === undefined ? {} : { durationMs: paper.source.durationSec * 1000 }),
      markets: markets.length > 0 ? markets : SYNTHETIC_MARKETS,
    }),
    synthetic: true,
  };
}

/**
 * Starts the embedded paper venue of a paper run on 127.0.0.1: the config's instruments,
 * starting cash, fill model (without one, the one a backtest of the source would default to),
 * latency (with its seed), source and pacing (lockstep, or real time at the configured speed),
 * and a key and secret made for this run.
 * @param loaded - a validated config of mode paper
 * @param instruments - the run's instrument specs
 * @param startTime - venue time of a synthetic session's first event
 * @param logger - told the first skipped line of each kind, and a source that failed
 * @returns the running venue
 * @throws Error when the config has no paper section; PortInUse when `paper.venuePort` is taken
 */
export async function startEmbeddedPaperVenue(
  loaded: LoadedConfig,
  instruments: readonly InstrumentSpec[],
  startTime: number,
  logger: Pick<Logger, 'warn' | 'error'>,
): Promise<EmbeddedPaperVenue> {
  const paper = loaded.config.paper;
  if (paper === undefined) throw new Error(`${loaded.file} has no paper section`);
  const damage = loggedRecordingDamage(logger);
  const { feed, synthetic, recording } = await paperFeedOf(paper, loaded, startTime, damage);
  // Up to the first event that decides queue: a synthetic source stops at its first quote.
  const preview = await fillModelPreview(feed).catch((error: unknown) => {
    throw new Error(
      `${loaded.file}: paper.source: cannot read the market data: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  });
  // As a backtest: bars only (e.g. a recording from keel import-csv) match on the bar model, where
  // attached stop-losses and take-profits fire; the queue model would never fill against bars.
  const defaultedFillModel = paper.fillModel === undefined ? defaultFillModelFor(preview) : undefined;
  const fillModel =
    paper.fillModel === undefined ? (defaultedFillModel ?? 'queue') : fillModelOf(paper.fillModel);
  const feeMarkup = subPortfolioMarkupOf(loaded.config);
  const loans = loanOptionsOf(paper.loans, configLoanAdvice('paper.loans'));
  const venue = await startPaperVenue({
    instruments,
    port: paper.venuePort,
    portfolios: [
      {
        portfolioId: loaded.config.portfolios.main,
        apiKey: `paper-${randomBytes(6).toString('hex')}`,
        apiSecret: randomBytes(24).toString('hex'),
        startingBalances: paper.startingCash,
        positionMode: paper.positionMode,
        // The sub-portfolio the strategies trade in pays its markup here, once, on top of each
        // instrument's own (the specs carry only the latter).
        ...(feeMarkup === undefined ? {} : { feeMarkup }),
      },
    ],
    fillModel,
    loans,
    // The session signs as venue.signing.arrays says (when the config has a venue section): the
    // embedded venue verifies alike, as the live venue the setting was chosen for would.
    ...signatureArraysOf(loaded.config),
    ...(paper.latency === undefined ? {} : { latency: latencyOf(paper.latency), seed: paper.latency.seed }),
    feed,
    pacing: paper.lockstep ? { mode: 'lockstep' } : { mode: 'realtime', speed: paper.speed },
    onLockstepStall: (stall) =>
      logger.warn(
        stall,
        'lockstep paper venue ran commands or pushes at its stall bound (a wall-clock deadline) instead of when the session moved its time there: the run waited on it',
      ),
  }).catch((error: unknown) => {
    throw isAddressInUse(error) ? new PortInUse('paper.venuePort', '127.0.0.1', paper.venuePort) : error;
  });
  const ended = new Promise<void>((done) => {
    const poll = setInterval(() => {
      if (venue.feed.ended) {
        clearInterval(poll);
        if (venue.feed.failure !== undefined)
          logger.error(
            { err: venue.feed.failure.message, released: venue.feed.released },
            'the market source failed: the session has no more market data',
          );
        done();
      }
    }, 50);
    poll.unref();
  });
  return {
    venue,
    synthetic,
    ended,
    fillModel: {
      name: typeof fillModel === 'string' ? fillModel : fillModel.name,
      description: `The paper venue's simulated matching over loopback: ${venue.fillModel}.`,
    },
    defaultedFillModel,
    firstEventTime: preview[0]?.recvTs,
    sourceWarnings: () => {
      const failure = venue.feed.failure;
      return [
        ...(recording === undefined ? [] : damage.warnings([recording])),
        ...(failure === undefined
          ? []
          : [
              `the market source failed after ${venue.feed.released} events (${failure.message}): the session had no market data after that`,
            ]),
        ...barOverlapWarnings(venue.barOverlaps()),
        ...earlySpanWorkWarnings(venue.earlySpanWork()),
      ];
    },
  };
}

/**
 * The clock and timers of a paper session on the embedded venue: the replay's time, never the
 * wall clock. Lockstep: event time, the venue ticking to the session's timers before later
 * events (as a backtest fires them); realtime pacing: the venue's running replay time, timers
 * woken at `paper.speed` times the wall rate, the venue moved to their time first so what they
 * send runs there then. Either starts at the source's first event.
 * @param paper - the paper settings (absent = realtime at speed 1)
 * @param embedded - the started venue and what its source begins with
 * @param venue - the venue whose clock the session follows
 * @returns the session's scheduler
 */
export function paperScheduler(
  paper: PaperConfig | undefined,
  embedded: Pick<EmbeddedPaperVenue, 'firstEventTime'>,
  venue: Pick<PaperVenue, 'now' | 'replayNow' | 'replayRunningNow' | 'timerFires'>,
): Scheduler {
  const start = embedded.firstEventTime ?? 0;
  return paper?.lockstep === true
    ? lockstepReplayScheduler(start, () => venue.now())
    : pacedReplayScheduler(
        start,
        { now: () => venue.replayNow(), running: () => venue.replayRunningNow() },
        paper?.speed ?? 1,
        (at) => venue.timerFires(at),
      );
}
