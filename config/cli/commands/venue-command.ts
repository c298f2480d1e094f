import { resolve } from 'node:path';
import {
  DataDirInUseError,
  DataDirReplayError,
  type FeedSource,
  lockDataDir,
  previewFeed,
  recordingFeed,
  startPaperVenue,
  syntheticFeed,
} from '../../../backtest/paper-venue/index.ts';
import { readSessionHeader } from '../../../backtest/recording/index.ts';
import type { RunLock } from '../../../backtest/report/index.ts';
import { SYNTHETIC_INSTRUMENTS } from '../../../backtest/synthetic/index.ts';
import { D } from '../../../core/model/index.ts';
import { isBadInputFile } from '../bad-input-file.ts';
import type { CliIo } from '../cli-io.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { chooseVenueStart } from './venue-data-dir.ts';

/** Options of `keel venue`. */
export interface VenueOptions {
  readonly host: string;
  /** 0 picks a free port (printed at start). */
  readonly port: number;
  /** A recording to replay; absent = synthetic data (labelled synthetic). */
  readonly recording: string | undefined;
  /** Seed of the synthetic data. */
  readonly seed: number;
  /** Replay speed, 1 = real time. */
  readonly speed: number;
  /** Where the venue keeps its state across restarts and crashes; absent = memory only. */
  readonly dataDir?: string | undefined;
}

/**
 * `keel venue`: the paper venue as a standalone server speaking the venue's REST and
 * WebSocket protocol, with the SYNTHETIC instruments and 100000 USDT, until SIGINT / SIGTERM.
 * Prints its base URL, WebSocket URLs, and the API key and secret made for this run; with
 * `KEEL_API_KEY` and `KEEL_API_SECRET` both set it takes those instead (so a restarted venue
 * keeps the credentials a live config's `.env` holds) and does not print the secret. With a data
 * dir it keeps its orders, fills, positions and loans there (every command is logged before it
 * runs, so a crash loses none), and a restart on the same dir replays the same feed (its seed and
 * start time are kept there) with the same credentials. One venue at a time on a data dir: a
 * second is refused while the first runs.
 * @param options - address, data source and speed
 * @param io - output streams
 * @param env - where `KEEL_API_KEY` / `KEEL_API_SECRET` are read
 * @returns EXIT.OK after a signal closed it, EXIT.RUNTIME_FAILURE when it cannot start,
 *   EXIT.BAD_CONFIG_OR_USAGE when only one of the two variables is set, the data dir holds a
 *   venue started with another feed, is held by a running venue or does not replay to the account
 *   its venue acknowledged (written by another Keel), or the recording is not one
 *   (its header cannot be read, or it holds malformed lines and no market data: see `isBadInputFile`)
 */
export async function venueCommand(
  options: VenueOptions,
  io: CliIo,
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<ExitCode> {
  const { KEEL_API_KEY: apiKey, KEEL_API_SECRET: apiSecret } = env;
  if ((apiKey === undefined) !== (apiSecret === undefined)) {
    io.stderr.write('✖ keel venue: set both KEEL_API_KEY and KEEL_API_SECRET, or neither\n');
    return EXIT.BAD_CONFIG_OR_USAGE;
  }
  const fixed = apiKey === undefined || apiSecret === undefined ? undefined : { apiKey, apiSecret };
  if (options.host !== '127.0.0.1' && options.host !== 'localhost')
    io.stderr.write(`  note: the paper venue listens on 127.0.0.1 only; --host ${options.host} is ignored\n`);
  const recording = options.recording === undefined ? undefined : resolve(options.recording);
  const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  let venue: Awaited<ReturnType<typeof startPaperVenue>>;
  let restarted: boolean;
  let synthetic: boolean;
  let lock: RunLock | undefined;
  try {
    // The data dir is locked before its start file is read or written: of two venues started at
    // once on it, the one refused never touches the start file of the one that runs.
    lock = dataDir === undefined ? undefined : lockDataDir(dataDir, Date.now());
    // Read up to its first event (its skipped lines are told when the venue replays it): a file
    // that is not a recording is refused before a start file names it and a venue serves nothing.
    if (recording !== undefined)
      await previewFeed(
        recordingFeed(recording, () => undefined),
        1,
      );
    const choice = chooseVenueStart({ recording, seed: options.seed, fixed }, dataDir, Date.now());
    if (!choice.ok) {
      lock?.release();
      io.stderr.write(`✖ keel venue: ${choice.problem}\n`);
      return EXIT.BAD_CONFIG_OR_USAGE;
    }
    const { start } = choice;
    restarted = choice.restarted;
    const feed: FeedSource =
      start.recording === undefined
        ? syntheticFeed({ seed: start.seed, startTime: start.startTime })
        : recordingFeed(start.recording);
    // A generated recording stays SYNTHETIC on this venue: its system status says so, and live
    // sessions against it label their recordings and reports.
    synthetic = start.recording === undefined || (await readSessionHeader(start.recording)).synthetic;
    venue = await startPaperVenue({
      instruments: Object.values(SYNTHETIC_INSTRUMENTS),
      port: options.port,
      apiKey: start.apiKey,
      apiSecret: start.apiSecret,
      startingBalances: { USDT: D(100_000), USD: D(100_000) },
      feed,
      syntheticFeed: synthetic,
      pacing: { mode: 'realtime', speed: options.speed },
      ...(dataDir === undefined ? {} : { dataDir, dataDirLock: lock }),
    });
  } catch (error) {
    lock?.release();
    io.stderr.write(`✖ keel venue: ${(error as Error).message}\n`);
    return error instanceof DataDirInUseError || error instanceof DataDirReplayError || isBadInputFile(error)
      ? EXIT.BAD_CONFIG_OR_USAGE
      : EXIT.RUNTIME_FAILURE;
  }
  // Handlers first: a user (or a script) may press Ctrl-C the moment the URL shows.
  let stop: () => void = () => {};
  const stopped = new Promise<void>((done) => {
    stop = done;
  });
  // Kept until the process ends (not `once`), so a second Ctrl-C during the close cannot kill it half-closed.
  const onSignal = () => stop();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  io.stdout.write(
    [
      `Keel paper venue (${options.recording === undefined ? `SYNTHETIC market data, seed ${options.seed}` : `replaying ${options.recording}${synthetic ? ' (SYNTHETIC data)' : ''}`}, speed ${options.speed}x)`,
      `  base URL:        ${venue.restUrl}`,
      `  private WS:      ${venue.privateWsUrl}`,
      `  market-data WS:  ${venue.marketDataWsUrl}`,
      ...(options.speed > 1 ? [replayClockLine(options.speed)] : []),
      ...(fixed === undefined
        ? [`  API key:         ${venue.apiKey}`, `  API secret:      ${venue.apiSecret}`]
        : [
            `  API key:         ${venue.apiKey} (KEEL_API_KEY)`,
            '  API secret:      from KEEL_API_SECRET (not shown)',
          ]),
      ...(dataDir === undefined
        ? []
        : [
            `  data dir:        ${dataDir} (${restarted ? 'state restored from it' : 'new; state kept there'})`,
          ]),
      '  Ctrl-C stops it.',
      '',
    ].join('\n'),
  );
  await stopped;
  await venue.close();
  io.stdout.write('paper venue closed\n');
  return EXIT.OK;
}

/**
 * The start line of a venue replaying faster than real time: its data, fills and `Date` header
 * all follow the replay's clock, which runs ahead of this machine's clock.
 * @param speed - the replay speed, above 1
 * @returns the line
 */
export function replayClockLine(speed: number): string {
  return `  clock:           the replay's, ${speed}x real time: data, fills and the Date header on it, ahead of this machine's clock by ${speed - 1} s more every second`;
}
