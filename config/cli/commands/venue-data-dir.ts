import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { makePrivateDirSync } from '../../../backtest/files/index.ts';
import { writeWhole } from '../../../backtest/paper-venue/index.ts';
import { resolveFillModel } from '../../../backtest/sim/index.ts';
import { D } from '../../../core/model/index.ts';
import { fillModelOf } from '../../compose/sim-models.ts';
import { paperConfigSchema } from '../../schema/index.ts';
import { SETUP_BEFORE_IT_WAS_KEPT, setupFlags, type VenueSetup, venueLoanTerms } from './venue-setup.ts';

/** The file `keel venue` keeps in its data dir besides the paper venue's own. */
export const VENUE_START_FILE = 'keel-venue.json';

/** What `keel venue` needs to start the same venue again: its feed, its setup and its credentials. */
export interface VenueStart {
  /** The recording replayed (absolute path), or undefined for synthetic data. */
  readonly recording: string | undefined;
  /** Seed of the synthetic data. */
  readonly seed: number;
  /** Start time of the synthetic data, epoch ms (the first start's wall clock). */
  readonly startTime: number;
  /**
   * Its account's starting balances, fill model, latency and loan terms; absent in a start file written
   * before they were kept (read as {@link SETUP_BEFORE_IT_WAS_KEPT}).
   */
  readonly setup?: VenueSetup;
  /** Credentials the venue made at its first start; absent when they came from the environment. */
  readonly apiKey?: string;
  readonly apiSecret?: string;
}

/** The start asked for on the command line. */
export interface AskedStart {
  readonly recording: string | undefined;
  readonly seed: number;
  /** Credentials from KEEL_API_KEY / KEEL_API_SECRET, if set. */
  readonly fixed: { readonly apiKey: string; readonly apiSecret: string } | undefined;
  /** The setup's parts the command line set (`--balance`, `--fill-model`, `--latency`, `--loans`). */
  readonly given: Partial<VenueSetup>;
  /** The setup of a fresh start where the command line set none (its defaults for the feed). */
  readonly defaults: VenueSetup;
}

/** The start to use, or why the data dir cannot be used with the options given. */
export type VenueStartChoice =
  | {
      readonly ok: true;
      readonly start: Required<VenueStart>;
      readonly restarted: boolean;
      /**
       * The data dir was started before it kept its venue's setup: the setup is
       * {@link SETUP_BEFORE_IT_WAS_KEPT}, what every venue then had, not read from it.
       */
      readonly setupInferred: boolean;
    }
  | { readonly ok: false; readonly problem: string };

/**
 * Picks the start of a venue: a fresh one (made now, credentials generated unless fixed, the setup
 * the command line gave over the defaults), or the one saved in the data dir, so that a restart
 * replays the same feed on the same account and keeps its credentials. Saves a fresh start in the
 * data dir (readable by the owner only: it may hold the secret).
 * @param asked - the command line's feed and setup and the environment's credentials
 * @param dataDir - the data dir, or undefined for a venue that keeps nothing
 * @param now - the wall clock, for a fresh synthetic feed's start time
 * @returns the start, whether it came from the data dir, or the problem (a different feed, or a
 *   setup the command line gave that the data dir's venue was not started with)
 * @throws Error naming the file when it exists but cannot be read as a start
 */
export function chooseVenueStart(
  asked: AskedStart,
  dataDir: string | undefined,
  now: number,
): VenueStartChoice {
  const saved = dataDir === undefined ? undefined : savedStart(dataDir);
  if (saved !== undefined && dataDir !== undefined) {
    if (saved.recording !== asked.recording || (saved.recording === undefined && saved.seed !== asked.seed)) {
      const feed = saved.recording === undefined ? `--seed ${saved.seed}` : `--recording ${saved.recording}`;
      return {
        ok: false,
        problem: `${dataDir} holds a venue started with ${feed}: start it with the same feed, or use another --data-dir`,
      };
    }
    const setup = saved.setup ?? SETUP_BEFORE_IT_WAS_KEPT;
    const changed = (Object.keys(asked.given) as (keyof VenueSetup)[]).find(
      (key) => !sameSetupPart(key, asked.given, setup),
    );
    if (changed !== undefined) {
      const held =
        saved.setup === undefined
          ? `a venue started before data dirs kept their setup, so with what every venue then had (as ${setupFlags(changed, setup)} would set)`
          : `a venue started with ${setupFlags(changed, setup)}`;
      return {
        ok: false,
        problem: `${dataDir} holds ${held}: start it with that (or without the flag), or use another --data-dir`,
      };
    }
    const credentials = asked.fixed ?? credentialsOf(saved);
    if (credentials === undefined) {
      return {
        ok: false,
        problem: `${dataDir} holds a venue that took its credentials from KEEL_API_KEY and KEEL_API_SECRET: set them again`,
      };
    }
    return {
      ok: true,
      start: { ...saved, setup, ...credentials },
      restarted: true,
      setupInferred: saved.setup === undefined,
    };
  }
  const start: Required<VenueStart> = {
    recording: asked.recording,
    seed: asked.seed,
    startTime: now,
    setup: { ...asked.defaults, ...asked.given },
    ...(asked.fixed ?? {
      apiKey: `paper-${randomBytes(6).toString('hex')}`,
      apiSecret: randomBytes(24).toString('hex'),
    }),
  };
  if (dataDir !== undefined)
    saveStart(dataDir, asked.fixed === undefined ? start : withoutCredentials(start));
  return { ok: true, start, restarted: false, setupInferred: false };
}

/**
 * Whether a part of the setup the command line gave is the one the data dir keeps, however each is
 * written: balances as the same assets with equal amounts (`5e4` is `50000`, in any order), the
 * fill model, the latency and the loan terms as the venue runs them (`{name: queue}` is `queue`,
 * `userQuota: 1e3` is `userQuota: 1000`, defaults filled in).
 * @param key - the part
 * @param given - the parts the command line gave
 * @param kept - the data dir's setup
 * @returns true when the venue would run the same
 */
function sameSetupPart(key: keyof VenueSetup, given: Partial<VenueSetup>, kept: VenueSetup): boolean {
  if (key === 'balances') {
    const amounts = Object.entries(given.balances ?? {});
    return (
      amounts.length === Object.keys(kept.balances).length &&
      amounts.every(([asset, amount]) => {
        const keptAmount = kept.balances[asset];
        return keptAmount !== undefined && D(keptAmount).eq(D(amount));
      })
    );
  }
  if (key === 'fillModel')
    return (
      given.fillModel !== undefined &&
      isDeepStrictEqual(
        resolveFillModel(fillModelOf(given.fillModel)),
        resolveFillModel(fillModelOf(kept.fillModel)),
      )
    );
  if (key === 'loans')
    return JSON.stringify(venueLoanTerms(given.loans)) === JSON.stringify(venueLoanTerms(kept.loans));
  return isDeepStrictEqual(latencyAsRun(given.latency), latencyAsRun(kept.latency));
}

/**
 * A venue's latency as it runs it: defaults filled in, and the User Data leg it applies when
 * `userData` is absent (the `marketData` leg, else none), so `userData: {fixedMs: 0}` and an
 * absent `userData` are the same latency.
 */
function latencyAsRun(latency: VenueSetup['latency']): VenueSetup['latency'] {
  const parsed = paperConfigSchema.shape.latency.parse(latency);
  return parsed === undefined
    ? undefined
    : { ...parsed, userData: parsed.userData ?? parsed.marketData ?? { fixedMs: 0, jitterMs: 0 } };
}

function credentialsOf(start: VenueStart): { apiKey: string; apiSecret: string } | undefined {
  const { apiKey, apiSecret } = start;
  return apiKey === undefined || apiSecret === undefined ? undefined : { apiKey, apiSecret };
}

function withoutCredentials(start: VenueStart): VenueStart {
  const { apiKey: _key, apiSecret: _secret, ...kept } = start;
  return kept;
}

function savedStart(dataDir: string): VenueStart | undefined {
  const path = join(dataDir, VENUE_START_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = parsedStart(text);
  if (typeof parsed?.seed !== 'number' || typeof parsed.startTime !== 'number') {
    throw new Error(`${path} is not a keel venue start file (seed and startTime are missing)`);
  }
  return {
    recording: parsed.recording ?? undefined,
    seed: parsed.seed,
    startTime: parsed.startTime,
    ...(parsed.setup === undefined ? {} : { setup: parsed.setup }),
    ...(typeof parsed.apiKey === 'string' && typeof parsed.apiSecret === 'string'
      ? { apiKey: parsed.apiKey, apiSecret: parsed.apiSecret }
      : {}),
  };
}

function parsedStart(text: string): (Partial<VenueStart> & { recording?: string | null }) | undefined {
  try {
    return JSON.parse(text) as Partial<VenueStart> & { recording?: string | null };
  } catch {
    return undefined;
  }
}

function saveStart(dataDir: string, start: VenueStart): void {
  makePrivateDirSync(dataDir);
  const text = `${JSON.stringify({ ...start, recording: start.recording ?? null }, null, 1)}\n`;
  writeWhole(join(dataDir, VENUE_START_FILE), text);
}
