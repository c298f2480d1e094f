import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { makePrivateDirSync } from '../../backtest/files/index.ts';
import { writeWhole } from '../../backtest/paper-venue/index.ts';
import { D } from '../../core/model/index.ts';
import type { KillSwitchState } from '../../core/risk/index.ts';

const FORMAT = 'keel kill-switch state v1';

const fileSchema = z.object({
  format: z.literal(FORMAT),
  account: z.string(),
  run: z.string(),
  marks: z
    .object({
      day: z.int(),
      startOfDay: z.string().regex(/^-?\d+(\.\d+)?$/),
      highWater: z.string().regex(/^-?\d+(\.\d+)?$/),
    })
    .optional(),
  trip: z
    .object({
      state: z.enum(['ACTIVE', 'REDUCING', 'HALTED']),
      reason: z.string().optional(),
      since: z.number().optional(),
    })
    .optional(),
});

/**
 * The account a kill-switch state file belongs to: the venue's REST address and a fingerprint of
 * the API key (never the key itself), so a run on another account does not take its baseline.
 * @param restUrl - the venue's REST base URL
 * @param apiKey - the account's API key
 * @returns e.g. `https://venue.example/api key 3f2a9c0d1e4b5a6c`
 */
export function accountOf(restUrl: string, apiKey: string): string {
  const fingerprint = createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
  return `${venueAddressOf(restUrl)} key ${fingerprint}`;
}

/**
 * The venue address of an account, however the config spells it: the URL's origin and path
 * without a trailing slash (`https://Venue.example:443/api/` is `https://venue.example/api`), so
 * two configs on one venue share one file.
 */
function venueAddressOf(restUrl: string): string {
  if (!URL.canParse(restUrl)) return restUrl;
  const url = new URL(restUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** An account as a file written by an earlier Keel names it, its venue address spelled as {@link accountOf} spells it now. */
function accountAsNow(account: string): string {
  const at = account.lastIndexOf(' key ');
  return at < 0 ? account : `${venueAddressOf(account.slice(0, at))}${account.slice(at)}`;
}

/**
 * The kill-switch state file of an account: in Keel's state directory, named by a digest of the
 * account ({@link accountOf}), so every config on this machine that trades the account reads and
 * writes the one file whatever its result path (a fresh result path would otherwise hand a
 * restart a fresh daily loss budget).
 * @param stateDir - Keel's per-user state directory (`keelStateDir`)
 * @param account - the account ({@link accountOf})
 * @returns e.g. `~/.local/state/keel/kill-switch/9c1e0f2a3b4d5e6f.json`
 */
export function accountKillSwitchFileOf(stateDir: string, account: string): string {
  const digest = createHash('sha256').update(account).digest('hex').slice(0, 16);
  return join(stateDir, 'kill-switch', `${digest}.json`);
}

/**
 * Where Keel kept a live run's kill-switch state before it kept it per account: next to its
 * result, `<result without .json>.kill-switch.json`. Read only when the account's file is absent
 * (a first start after the upgrade), never written.
 * @param resultJsonPath - the run's result JSON path
 * @returns the former state file's path
 */
export function resultKillSwitchFileOf(resultJsonPath: string): string {
  return `${resultJsonPath.replace(/\.json$/i, '')}.kill-switch.json`;
}

/** What reading a state file found. */
export type KillSwitchFileRead =
  | { readonly kind: 'missing' }
  | { readonly kind: 'restored'; readonly state: KillSwitchState }
  | { readonly kind: 'otherAccount'; readonly account: string }
  | { readonly kind: 'unreadable'; readonly problem: string };

/**
 * Reads a kill-switch state file written by an earlier run.
 * @param path - the file
 * @param account - this run's account ({@link accountOf})
 * @returns the state when the file is this account's; what was wrong otherwise (never throws)
 */
export function readKillSwitchFile(path: string, account: string): KillSwitchFileRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', problem: (error as Error).message };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'unreadable', problem: `not JSON (${(error as Error).message})` };
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success)
    return { kind: 'unreadable', problem: z.prettifyError(parsed.error).replace(/\n/g, '; ') };
  const file = parsed.data;
  if (accountAsNow(file.account) !== account) return { kind: 'otherAccount', account: file.account };
  const { marks, trip } = file;
  return {
    kind: 'restored',
    state: {
      ...(marks === undefined
        ? {}
        : { marks: { day: marks.day, startOfDay: D(marks.startOfDay), highWater: D(marks.highWater) } }),
      ...(trip === undefined
        ? {}
        : {
            trip: {
              state: trip.state,
              ...(trip.reason === undefined ? {} : { reason: trip.reason }),
              ...(trip.since === undefined ? {} : { since: trip.since }),
            },
          }),
    },
  };
}

/**
 * The text of a state file (deterministic: same state, same text, so a caller can skip writes).
 * @param state - the gate's kill-switch state
 * @param account - this run's account
 * @param run - the run's name, for a reader
 * @returns the JSON text
 */
export function killSwitchFileText(state: KillSwitchState, account: string, run: string): string {
  const { marks, trip } = state;
  return `${JSON.stringify(
    {
      format: FORMAT,
      account,
      run,
      ...(marks === undefined
        ? {}
        : {
            marks: {
              day: marks.day,
              startOfDay: marks.startOfDay.toFixed(),
              highWater: marks.highWater.toFixed(),
            },
          }),
      ...(trip === undefined ? {} : { trip }),
    },
    undefined,
    2,
  )}\n`;
}

/**
 * Writes a state file whole (a temporary file renamed over it, so a crash leaves the old or the
 * new one, never half of one). The temporary file is this process's own: runs on one account
 * write the one file.
 * @param path - the file
 * @param text - its text ({@link killSwitchFileText})
 * @throws when the directory cannot be made or the file written
 */
export function writeKillSwitchFile(path: string, text: string): void {
  makePrivateDirSync(dirname(path));
  writeWhole(path, text, `${path}.${process.pid}.tmp`);
}
