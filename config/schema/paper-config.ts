import { z } from 'zod';
import { startingCashSchema } from './backtest-config.ts';
import { filePathSchema } from './file-path.ts';
import { loanTermsConfigSchema } from './loan-terms-config.ts';
import {
  fillModelConfigSchema,
  latencyLegSchema,
  latencyModelSchema,
  positionModeConfigSchema,
} from './sim-models-config.ts';

/** What the paper venue replays: a recorded session or synthetic data (labelled synthetic). */
export const paperSourceSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('recording'),
      path: filePathSchema.describe(
        'The recording to replay (a session recording, or what `keel import-csv` wrote), relative to the folder of the config file (`~/` is the home folder).',
      ),
    }),
    z.strictObject({
      kind: z.literal('synthetic'),
      seed: z.int().default(1).describe('Seed of the SYNTHETIC market generator.'),
      durationSec: z
        .number()
        .positive()
        .optional()
        .describe(
          'Seconds of market the generator makes, counted in market time from the start of the minute the session starts in; then the source ends, and the session with it: a lockstep run covers the same market, with the same fills, however fast the machine runs. Absent = endless.',
        ),
    }),
  ],
  { error: 'must be "recording" or "synthetic"' },
);

/** The embedded paper venue: where it listens, what it plays and how fast. */
export const paperConfigSchema = z.strictObject({
  venuePort: z
    .int()
    .min(0)
    .max(65535)
    .default(0)
    .describe('Loopback port of the paper venue; 0 picks a free one.'),
  speed: z
    .number()
    .positive()
    .default(1)
    .describe(
      "Replay speed: 1 is real time, 10 is ten times faster; in lockstep, the fastest it may go. The strategies' clock (ctx.now()) and timers follow the replay's time, not the wall clock: without lockstep a 60 s timer at speed 20 fires after 3 wall seconds.",
    ),
  lockstep: z
    .boolean()
    .default(false)
    .describe(
      "Wait for the strategies to settle each event before the next (deterministic, slower). Time then moves with the events, as in a backtest: a strategy timer due before the next event fires before the venue releases it, so the backtest of the session's recording gives the same fills.",
    ),
  source: paperSourceSchema
    .prefault({ kind: 'synthetic' })
    .describe(
      'What the paper venue replays: kind recording (a path) or synthetic (a seed and, optionally, a length in market time).',
    ),
  durationSec: z
    .number()
    .positive()
    .optional()
    .describe(
      'Stop after this many wall-clock seconds (at speed 5, 10 s replays about 50 s of market, less on a busy machine in lockstep); absent = until the source ends or SIGINT. To stop after a set span of market, give the source one (paper.source.durationSec).',
    ),
  startingCash: startingCashSchema
    .prefault({ USDT: 100000 })
    .describe("Starting balances of the paper venue's account per asset, e.g. { USD: 10000 }."),
  positionMode: positionModeConfigSchema
    .default('NET')
    .describe(
      "Position mode the paper venue's account starts in: NET (one position per sym) or BOTH (hedge mode, a LONG and a SHORT leg per sym).",
    ),
  fillModel: fillModelConfigSchema
    .optional()
    .describe(
      "The simulated venue's fill model behind the paper venue; absent = the one a backtest of the source would default to: bar when it begins with bars only (e.g. a keel import-csv recording), else queue, with a warning when the data does not fit that choice.",
    ),
  loans: loanTermsConfigSchema
    .optional()
    .describe(
      'Margin-loan terms of the paper venue (borrowable assets, rates, quotas, LTV limits); absent = nothing can be borrowed (406014).',
    ),
  latency: latencyModelSchema
    .extend({
      marketData: latencyLegSchema
        .optional()
        .describe(
          'Delays no market-data push (the paper venue sends each event as it releases it): it is the User Data delay when paper.latency.userData is absent, and a paper run warns that it is set.',
        ),
      userData: latencyLegSchema
        .optional()
        .describe(
          'Delay of User Data pushes (order updates, fills, balances) from the paper venue to the strategies; absent = the marketData leg, or none when both are absent.',
        ),
    })
    .optional()
    .describe(
      'Latency the paper venue applies on its own time: each order command reaches the matching engine fixedMs + jitter later (its reply follows), User Data pushes are delayed by userData (default: marketData); market-data pushes are not delayed. Absent = none.',
    ),
});

/** Paper-venue settings, validated. */
export type PaperConfig = z.output<typeof paperConfigSchema>;
