import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { instrumentSpecsOf } from '../../config/compose/instrument-specs.ts';
import {
  type EmbeddedPaperVenue,
  paperScheduler,
  startEmbeddedPaperVenue,
} from '../../config/compose/paper-run.ts';
import { runLogger } from '../../config/compose/run-logger.ts';
import { runVenueSession } from '../../config/compose/venue-session.ts';
import type { VenueSessionOutcome } from '../../config/compose/venue-session-options.ts';
import { loadValidConfig } from '../../config/loader/index.ts';
import type { KeelConfig } from '../../config/schema/index.ts';
import type { StrategySlot } from '../../core/kernel/index.ts';

/**
 * A lockstep paper config of the market maker on SYNTHETIC BTC data, its venue releasing nothing
 * until acknowledged (so venue time stays put), with `extraPaperLines` added to its paper section.
 * @param extraPaperLines - more `paper:` keys, each line indented by two spaces and ending in a newline
 * @returns the YAML text
 */
export function lockstepPaperConfig(extraPaperLines = ''): string {
  return `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker }
paper:
  lockstep: true
  source: { kind: synthetic, seed: 1 }
${extraPaperLines}`;
}

/**
 * Starts the embedded paper venue of config texts written to temporary files, as a paper run
 * would; the venues are closed and the files removed after each test of the file this is called in.
 * @returns a function starting one config text's venue
 */
export function embeddedPaperVenues(): (configText: string) => Promise<EmbeddedPaperVenue> {
  const dirs: string[] = [];
  const started: EmbeddedPaperVenue[] = [];
  afterEach(async () => {
    for (const run of started.splice(0)) await run.venue.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return async (configText) => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-embedded-paper-'));
    dirs.push(dir);
    const file = join(dir, 'paper.yaml');
    writeFileSync(file, configText);
    const loaded = loadValidConfig(file);
    const run = await startEmbeddedPaperVenue(
      loaded,
      instrumentSpecsOf(loaded.config.instruments),
      Date.now(),
      { warn: () => undefined, error: () => undefined },
    );
    started.push(run);
    return run;
  };
}

/**
 * Runs a lockstep paper session of `slots` against an embedded paper venue wired as a paper run
 * wires it (the venue's clock, scheduler, end and fill model), logging nothing.
 * @param config - the session's config
 * @param embedded - its started venue ({@link embeddedPaperVenues})
 * @param slots - the strategies
 * @param lockstepSpeed - venue time per wall time
 * @returns the session's outcome
 */
export function runLockstepPaperSession(
  config: KeelConfig,
  embedded: EmbeddedPaperVenue,
  slots: readonly StrategySlot[],
  lockstepSpeed: number,
): Promise<VenueSessionOutcome> {
  const { venue } = embedded;
  return runVenueSession({
    config,
    mode: 'paper',
    slots,
    instruments: instrumentSpecsOf(config.instruments),
    logger: runLogger(slots[0]?.id ?? 'paper', 'silent'),
    venue: {
      restUrl: venue.restUrl,
      privateWsUrl: venue.privateWsUrl,
      marketDataWsUrl: venue.marketDataWsUrl,
      apiKey: venue.apiKey,
      apiSecret: venue.apiSecret,
      brokerClientId: 'main',
      label: 'paper',
    },
    synthetic: false,
    sessionClock: () => venue.now(),
    scheduler: paperScheduler(config.paper, embedded, venue),
    lockstep: true,
    lockstepSpeed,
    ended: embedded.ended,
    handleSignals: false,
    fillModel: embedded.fillModel,
  });
}
