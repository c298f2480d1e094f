import { resolve } from 'node:path';
import {
  DataDirInUseError,
  DataDirReplayError,
  type FeedSource,
  lockDataDir,
  recordingFeed,
  startPaperVenue,
  syntheticFeed,
} from '../../../backtest/paper-venue/index.ts';
import { readSessionHeader } from '../../../backtest/recording/index.ts';
import type { RunLock } from '../../../backtest/report/index.ts';
import {
  defaultFillModelFor,
  type FillModelAdvice,
  sourceStartFillModelWarnings,
} from '../../../backtest/runner/index.ts';
import { SYNTHETIC_INSTRUMENTS } from '../../../backtest/synthetic/index.ts';
import { D } from '../../../core/model/index.ts';
import type { ArrayEncoding } from '../../../core/venue/index.ts';
import { fillModelPreview } from '../../compose/fill-model-preview.ts';
import { STOP_SIGNALS } from '../../compose/session-stop.ts';
import { fillModelOf, latencyOf, loanOptionsOf } from '../../compose/sim-models.ts';
import { envValueOf } from '../../loader/index.ts';
import { isBadInputFile } from '../bad-input-file.ts';
import type { CliIo } from '../cli-io.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { recordingOptionProblems } from '../recording-option-problems.ts';
import { chooseVenueStart } from './venue-data-dir.ts';
import {
  coinsTheVenueValues,
  DEFAULT_VENUE_LOANS,
  defaultVenueBalances,
  type SetupStatement,
  type VenueFillModel,
  type VenueLatency,
  type VenueLoans,
  type VenueSetup,
  venueLoanTerms,
  venueSetupLines,
} from './venue-setup.ts';

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
  /**
   * Starting balances of the account by asset (`--balance`, decimal strings); absent = what
   * `paper.startingCash` defaults to (100000 USDT).
   */
  readonly balance?: Readonly<Record<string, string>> | undefined;
  /** The sims' fill model, as `paper.fillModel` takes it; absent = the one a backtest of the feed defaults to. */
  readonly fillModel?: VenueFillModel | undefined;
  /** Latency, as `paper.latency` takes it; absent = none. */
  readonly latency?: VenueLatency | undefined;
  /** Loan terms, as `paper.loans` takes them; absent = {@link DEFAULT_VENUE_LOANS} (Keel's assumptions). */
  readonly loans?: VenueLoans | undefined;
  /**
   * How the venue writes array parameters into the REST signature text it verifies
   * (`--signature-arrays`, as `venue.signing.arrays` takes it); absent = `comma`, as Keel signs.
   */
  readonly signatureArrays?: ArrayEncoding | undefined;
  /**
   * Whether the account reply lists the assets (`--no-account-assets` sets false, as the public
   * notes' account fields hold none); absent = true.
   */
  readonly accountAssets?: boolean | undefined;
}

/**
 * `keel venue`: the paper venue as a standalone server speaking the venue's REST and
 * WebSocket protocol, with the SYNTHETIC instruments, until SIGINT / SIGTERM / SIGHUP (each closes it
 * alike). Its account starts
 * with the `--balance` given, else with what `paper.startingCash` defaults to (100000 USDT, which
 * the venue counts one for one with the USD a US equity settles in); its fill model is `--fill-model`, else the one a backtest or paper
 * run of the feed defaults to (`bar` on data that begins with bars only, else `queue`); its
 * latency `--latency`, else none; its loan terms `--loans`, else Keel's assumed ones
 * ({@link DEFAULT_VENUE_LOANS}). It states all four at start, and warns of a quote or trade
 * fill model on data that begins with bars only.
 * Prints its base URL, WebSocket URLs, and the API key and secret made for this run; with
 * `KEEL_API_KEY` and `KEEL_API_SECRET` both set (an empty one counts as unset; each may be given as a
 * file, `KEEL_API_KEY_FILE` / `KEEL_API_SECRET_FILE`, see `envValueOf`) it takes those instead (so a restarted venue
 * keeps the credentials a live config's `.env` holds) and does not print the secret. With a data
 * dir it keeps its orders, fills, positions and loans there (every command is logged before it
 * runs, so a crash loses none), and a restart on the same dir replays the same feed (its seed and
 * start time are kept there) on the same setup with the same credentials. One venue at a time on a data dir: a
 * second is refused while the first runs.
 * @param options - address, data source and speed
 * @param io - output streams
 * @param env - where `KEEL_API_KEY` / `KEEL_API_SECRET` are read
 * @returns EXIT.OK after a signal (SIGINT, SIGTERM or SIGHUP) closed it, EXIT.RUNTIME_FAILURE when it cannot start,
 *   EXIT.BAD_CONFIG_OR_USAGE when only one of the two variables is set (and not empty), `--balance` names an
 *   asset the venue cannot value (see `coinsTheVenueValues`), the data dir holds a
 *   venue started with another feed or another setup than the flags give, is held by a running venue or does not replay to the account
 *   its venue acknowledged (written by another Keel), or the recording is not there or not one
 *   (an OHLCV CSV, as `recordingOptionProblems` says for `keel backtest` too; its header cannot be
 *   read, or it holds malformed lines and no market data: see `isBadInputFile`)
 */
export async function venueCommand(
  options: VenueOptions,
  io: CliIo,
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<ExitCode> {
  // Empty counts as unset, as the config loader refuses an empty variable: an empty key would
  // let any client that sends none in.
  const credentials: (string | undefined)[] = [];
  for (const name of ['KEEL_API_KEY', 'KEEL_API_SECRET']) {
    const found = envValueOf(env, name);
    if ('problem' in found) {
      io.stderr.write(`✖ keel venue: ${found.problem}\n`);
      return EXIT.BAD_CONFIG_OR_USAGE;
    }
    credentials.push(found.value || undefined);
  }
  const [apiKey, apiSecret] = credentials;
  if ((apiKey === undefined) !== (apiSecret === undefined)) {
    io.stderr.write(
      '✖ keel venue: set both KEEL_API_KEY and KEEL_API_SECRET, or neither (an empty one counts as unset)\n',
    );
    return EXIT.BAD_CONFIG_OR_USAGE;
  }
  const fixed = apiKey === undefined || apiSecret === undefined ? undefined : { apiKey, apiSecret };
  if (options.host !== '127.0.0.1' && options.host !== 'localhost')
    io.stderr.write(`  note: the paper venue listens on 127.0.0.1 only; --host ${options.host} is ignored\n`);
  // Said as keel backtest says it, not as the recording reader's ENOENT or "header is not JSON".
  const recordingProblems =
    options.recording === undefined ? [] : recordingOptionProblems([options.recording]);
  if (recordingProblems.length > 0) {
    for (const line of recordingProblems) io.stderr.write(`${line}\n`);
    return EXIT.BAD_CONFIG_OR_USAGE;
  }
  const recording = options.recording === undefined ? undefined : resolve(options.recording);
  const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  let venue: Awaited<ReturnType<typeof startPaperVenue>>;
  let restarted: boolean;
  let setupInferred: boolean;
  let synthetic: boolean;
  let lock: RunLock | undefined;
  let setup: VenueSetup;
  let first: Awaited<ReturnType<typeof fillModelPreview>>;
  const given = givenSetup(options);
  // Refused rather than counted as 0 in the equity a session against the venue sizes on.
  const values = coinsTheVenueValues(Object.values(SYNTHETIC_INSTRUMENTS));
  const unvaluable = Object.keys(given.balances ?? {}).filter((asset) => !values.includes(asset));
  if (unvaluable.length > 0) {
    io.stderr.write(
      `✖ keel venue: --balance names ${unvaluable.join(', ')}, which the venue cannot value: it values ${values.join(', ')} (USDT, USDC and USD at 1, the others at the price of an instrument it lists) and would count anything else as 0 in its equity\n`,
    );
    return EXIT.BAD_CONFIG_OR_USAGE;
  }
  try {
    // The data dir is locked before its start file is read or written: of two venues started at
    // once on it, the one refused never touches the start file of the one that runs.
    lock = dataDir === undefined ? undefined : lockDataDir(dataDir, Date.now());
    // Read up to what decides the default fill model (its skipped lines are told when the venue
    // replays it): a file that is not a recording is refused before a start file names it and a
    // venue serves nothing.
    first = await fillModelPreview(
      recording === undefined
        ? syntheticFeed({ seed: options.seed, startTime: Date.now() })
        : recordingFeed(recording, () => undefined),
    );
    const defaults: VenueSetup = {
      balances: defaultVenueBalances(),
      fillModel: defaultFillModelFor(first),
      loans: DEFAULT_VENUE_LOANS,
    };
    const choice = chooseVenueStart(
      { recording, seed: options.seed, fixed, given, defaults },
      dataDir,
      Date.now(),
    );
    if (!choice.ok) {
      lock?.release();
      io.stderr.write(`✖ keel venue: ${choice.problem}\n`);
      return EXIT.BAD_CONFIG_OR_USAGE;
    }
    const { start } = choice;
    restarted = choice.restarted;
    setupInferred = choice.setupInferred;
    setup = start.setup;
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
      startingBalances: Object.fromEntries(
        Object.entries(setup.balances).map(([asset, cash]) => [asset, D(cash)]),
      ),
      fillModel: fillModelOf(setup.fillModel),
      loans: loanOptionsOf(venueLoanTerms(setup.loans), venueLoanAdvice),
      ...(options.signatureArrays === undefined ? {} : { signatureArrays: options.signatureArrays }),
      ...(options.accountAssets === false ? { accountAssets: false } : {}),
      ...(setup.latency === undefined ? {} : { latency: latencyOf(setup.latency), seed: setup.latency.seed }),
      feed,
      syntheticFeed: synthetic,
      // SYNTHETIC data is generated on this machine's clock: the venue's clock starts there, not
      // up to a minute behind (the generator starts on the minute), nor a restart's downtime behind.
      pacing: { mode: 'realtime', speed: options.speed, eventsOnWallClock: start.recording === undefined },
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
  // SIGHUP too (its terminal closed, a supervisor's session ended): the launcher would end it at
  // once otherwise. Kept until it is closed (not `once`), so a second Ctrl-C during the close
  // cannot kill it half-closed.
  const onSignal = () => stop();
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  const fillModelName = typeof setup.fillModel === 'string' ? setup.fillModel : setup.fillModel.name;
  // A restart keeps the data dir's fill model: the way to another is a new data dir.
  const advice: FillModelAdvice | undefined = restarted
    ? (models) => `a restart keeps it, so start a new --data-dir with --fill-model ${models}`
    : undefined;
  const setting = restarted ? "the data dir's fill model" : '--fill-model';
  for (const warning of sourceStartFillModelWarnings(fillModelName, first, setting, advice))
    io.stderr.write(`  warning: ${warning}\n`);
  const kept = setupInferred ? 'old data dir' : 'data dir';
  const statement: SetupStatement = {
    balances: venue.portfolios[0]?.startingBalances ?? {},
    fillModel: venue.fillModel,
    latency: setup.latency,
    loans: setup.loans,
    origins: {
      balances: restarted ? kept : given.balances === undefined ? 'default' : 'flag',
      fillModel: restarted ? kept : given.fillModel === undefined ? 'default' : 'flag',
      latency: restarted ? kept : given.latency === undefined ? 'default' : 'flag',
      loans: restarted ? kept : given.loans === undefined ? 'default' : 'flag',
    },
    sourceDefault: defaultFillModelFor(first),
  };
  io.stdout.write(
    [
      `Keel paper venue (${options.recording === undefined ? `SYNTHETIC market data, seed ${options.seed}` : `replaying ${options.recording}${synthetic ? ' (SYNTHETIC data)' : ''}`}, speed ${options.speed}x)`,
      `  base URL:        ${venue.restUrl}`,
      `  private WS:      ${venue.privateWsUrl}`,
      `  market-data WS:  ${venue.marketDataWsUrl}`,
      ...(options.speed > 1 ? [replayClockLine(options.speed)] : []),
      ...venueSetupLines(statement),
      signingLine(options.signatureArrays),
      ...(options.accountAssets === false
        ? [
            "  account reply:   no assets (--no-account-assets, as the public notes' account fields): balances only on the Assets channel",
          ]
        : []),
      ...(fixed === undefined
        ? [`  API key:         ${venue.apiKey}`, `  API secret:      ${venue.apiSecret}`]
        : [
            `  API key:         ${venue.apiKey} (KEEL_API_KEY)`,
            '  API secret:      from KEEL_API_SECRET (not shown)',
          ]),
      // It refuses a PLACE_ORDER naming another account: a live config against it sets this one.
      `  account id:      ${venue.portfolioId} (US-equity orders' brokerClientId: a live config's venue.brokerClientId)`,
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
  try {
    await venue.close();
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  }
  io.stdout.write('paper venue closed\n');
  return EXIT.OK;
}

/** The setup's parts the command line gave. */
function givenSetup(options: VenueOptions): Partial<VenueSetup> {
  return {
    ...(options.balance === undefined ? {} : { balances: options.balance }),
    ...(options.fillModel === undefined ? {} : { fillModel: options.fillModel }),
    ...(options.latency === undefined ? {} : { latency: options.latency }),
    ...(options.loans === undefined ? {} : { loans: options.loans }),
  };
}

/**
 * The 406014 advice of `keel venue`: its loan terms come from `--loans`, kept in a data dir.
 * @param key - the `EXCHANGE:COIN` a borrow named
 * @returns the advice
 */
function venueLoanAdvice(key: string): string {
  return `start keel venue with --loans naming it, e.g. --loans '{assets: {"${key}": {annualRate: 0.08, userQuota: 50000}}}' (a --data-dir keeps the terms of its first start: use a new one)`;
}

/** How each array encoding writes `["a", "b"]`, for the start line. */
const ARRAY_TEXT: Readonly<Record<ArrayEncoding, string>> = {
  comma: 'joined with commas, a,b',
  json: 'as JSON, ["a","b"]',
  brackets: 'as a bracketed list, [a, b]',
};

/**
 * The start line saying how the venue verifies the signature of a request with an array
 * parameter, and where that came from.
 * @param given - `--signature-arrays`, if given
 * @returns the line
 */
function signingLine(given: ArrayEncoding | undefined): string {
  const origin =
    given === undefined
      ? "Keel's choice, the docs do not say; --signature-arrays sets it"
      : '--signature-arrays';
  return `  signing:         arrays ${ARRAY_TEXT[given ?? 'comma']} (${origin})`;
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
