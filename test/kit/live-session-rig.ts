import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import {
  type PaperVenue,
  type PaperVenueOptions,
  startPaperVenue,
  syntheticFeed,
} from '../../backtest/paper-venue/index.ts';
import { SYNTHETIC_MARKETS } from '../../backtest/synthetic/index.ts';
import { instrumentSpecsOf } from '../../config/compose/instrument-specs.ts';
import { KEEL_STATE_DIR_VAR } from '../../config/compose/keel-state-dir.ts';
import { runConfiguredSession } from '../../config/compose/session-run.ts';
import { formatConfigProblem, loadConfig } from '../../config/loader/index.ts';
import { D } from '../../core/model/index.ts';
import { type PaperEndpoint, type PlainReply, signedRest } from './paper-venue-client.ts';
import { tempDirsRemovedAfterEach } from './temp-dirs.ts';

/** The sym live-session tests trade. */
export const SESSION_SYM = 'BINANCE_PERP_BTC_USDT';

const KEY_VAR = 'KEEL_TEST_SESSION_KEY';
const SECRET_VAR = 'KEEL_TEST_SESSION_SECRET';

/** What one live session of {@link liveSessionRig} is run with. */
export interface LiveSessionRun {
  /** The `strategies:` list, each line indented by two spaces. */
  readonly strategies: string;
  /** How long the session runs, s. */
  readonly durationSec: number;
  /** More top-level config lines. */
  readonly extra?: string;
  /**
   * The REST base URL the session is given instead of the venue's (e.g. a counting proxy in front
   * of it); the WebSocket URLs stay the venue's.
   */
  readonly restUrl?: string;
  /** The directory of the session's config and outputs; default a fresh one (give one to restart a run in place). */
  readonly dir?: string;
  /**
   * A port on 127.0.0.1 the session reaches the venue through (e.g. a proxy in front of it), in
   * place of the venue's own in its REST and WebSocket URLs alike.
   */
  readonly viaPort?: number;
  /** A port on 127.0.0.1 the session's market-data WebSocket reaches the venue through, in place of `viaPort` or the venue's own. */
  readonly marketDataViaPort?: number;
  /** Whether the session takes SIGINT / SIGTERM / SIGHUP, as `keel run` does (default false: it stops on its duration). */
  readonly handleSignals?: boolean;
}

/** A paper venue on SYNTHETIC BTC data (5x real time) and a way to run live sessions against it. */
export interface LiveSessionRig {
  /** The venue now (a new one after {@link LiveSessionRig.restartVenue}). */
  readonly venue: PaperVenue;
  /** The venue's REST endpoint, signed as the session's account. */
  readonly endpoint: PaperEndpoint;
  /**
   * Runs Keel's real live session path (`runConfiguredSession`, mode live) on the venue.
   * @returns the session's outcome (throws when the config or session fails)
   */
  run(
    session: LiveSessionRun,
  ): Promise<Extract<Awaited<ReturnType<typeof runConfiguredSession>>, { ok: true }>>;
  /** A fresh directory, removed after the test (for {@link LiveSessionRun.dir}). */
  newDir(): string;
  /** Keel's state directory of the rig's sessions (`KEEL_STATE_DIR`): a fresh one per rig. */
  readonly stateDir: string;
  /**
   * Starts a new venue on the same port, credentials and feed in place of the running one:
   * - `state lost`: the new one knows nothing of the first one's orders;
   * - `crashed`: the new one starts from what the first one's data dir held while it ran (its
   *   snapshots are an hour apart, so only the command log has its commands), as after a kill -9.
   * @param how - what the new venue keeps
   */
  restartVenue(how: 'state lost' | 'crashed'): Promise<void>;
  /** A signed REST call as the session's account. */
  rest(method: 'GET' | 'POST' | 'DELETE', path: string, params: Record<string, unknown>): Promise<PlainReply>;
}

/** How the venue of {@link liveSessionRigs} differs from its default. */
export interface LiveSessionVenue {
  /** How far the feed starts behind the machine's clock, ms (default 0: it starts at the minute). */
  readonly feedBehindMs?: number;
  /** How many times real time the feed runs (default 5). */
  readonly speed?: number;
  /** Loan terms (default none: borrows are refused). */
  readonly loans?: PaperVenueOptions['loans'];
}

/**
 * A live-session rig per test: the venue is closed and the config files removed after each test
 * of the file this is called in.
 * @param venueOptions - the venue's feed clock, speed and loans, and any other paper venue option
 *   to change (e.g. an order-entry latency)
 * @returns a function starting one rig
 */
export function liveSessionRigs(
  venueOptions: LiveSessionVenue & Partial<PaperVenueOptions> = {},
): () => Promise<LiveSessionRig> {
  const { feedBehindMs, speed, ...paperOptions } = venueOptions;
  const newDir = tempDirsRemovedAfterEach('keel-live-session-');
  const venues: PaperVenue[] = [];
  afterEach(async () => {
    for (const venue of venues.splice(0)) await venue.close();
  });
  return async () => {
    process.env[KEY_VAR] = 'k';
    process.env[SECRET_VAR] = 's';
    // Each rig's sessions keep account state (the kill switch's) apart from other tests' and the user's.
    const stateDir = newDir();
    process.env[KEEL_STATE_DIR_VAR] = stateDir;
    const options: PaperVenueOptions = {
      instruments: instrumentSpecsOf([{ sym: SESSION_SYM, overrides: {} }] as never),
      portfolios: [
        { portfolioId: 'main', apiKey: 'k', apiSecret: 's', startingBalances: { USDT: D(100_000) } },
      ],
      fillModel: 'touch',
      feed: syntheticFeed({
        seed: 42,
        startTime: Date.now() - (feedBehindMs ?? 0),
        markets: SYNTHETIC_MARKETS.filter((m) => m.sym === SESSION_SYM),
      }),
      pacing: { mode: 'realtime', speed: speed ?? 5 },
      dataDir: newDir(),
      persistDebounceMs: 3_600_000,
      ...paperOptions,
    };
    let venue = await startPaperVenue(options);
    venues.push(venue);
    const endpoint: PaperEndpoint = { restUrl: venue.restUrl, apiKey: 'k', apiSecret: 's' };
    let runs = 0;
    return {
      get venue() {
        return venue;
      },
      endpoint,
      async restartVenue(how) {
        const dataDir = newDir();
        if (how === 'crashed' && options.dataDir !== undefined)
          cpSync(options.dataDir, dataDir, { recursive: true });
        await venue.close();
        venues.splice(venues.indexOf(venue), 1);
        venue = await startPaperVenue({ ...options, dataDir, port: Number(new URL(venue.restUrl).port) });
        venues.push(venue);
      },
      newDir,
      stateDir,
      // Signed on the venue's clock, as its Date header tells it (its replay's in realtime pacing).
      rest: (method, path, params) =>
        signedRest(endpoint, method, path, params, { nonceSeconds: Math.floor(venue.serverNow() / 1000) }),
      async run(session) {
        const dir = session.dir ?? newDir();
        const file = join(dir, `session-${++runs}.yaml`);
        const via = (url: string, port = session.viaPort): string => {
          if (port === undefined) return url;
          const moved = new URL(url);
          moved.port = String(port);
          return moved.toString().replace(/\/$/, '');
        };
        writeFileSync(
          file,
          `mode: live
venue:
  restUrl: ${session.restUrl ?? via(venue.restUrl)}
  privateWsUrl: ${via(venue.privateWsUrl)}
  marketDataWsUrl: ${via(venue.marketDataWsUrl, session.marketDataViaPort ?? session.viaPort)}
  apiKey: \${${KEY_VAR}}
  apiSecret: \${${SECRET_VAR}}
portfolios: { main: main }
instruments: [${SESSION_SYM}]
strategies:
${session.strategies}
logging: { level: error }
report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(join(dir, 'report.html'))} }
${session.extra ?? ''}`,
        );
        const loaded = loadConfig(file);
        if (!loaded.ok) throw new Error(loaded.problems.map(formatConfigProblem).join('\n'));
        const outcome = await runConfiguredSession(loaded, {
          durationSec: session.durationSec,
          handleSignals: session.handleSignals ?? false,
        });
        if (!outcome.ok) throw new Error(outcome.problems.join('\n'));
        return outcome;
      },
    };
  };
}
