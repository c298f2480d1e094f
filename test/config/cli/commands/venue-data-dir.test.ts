import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseVenueStart, VENUE_START_FILE } from '../../../../config/cli/commands/venue-data-dir.ts';
import type { VenueSetup } from '../../../../config/cli/commands/venue-setup.ts';
import { modeOf, POSIX_MODES } from '../../../kit/file-modes.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const aDataDir = tempDirsRemovedAfterEach('venue-data-dir-');

const defaults: VenueSetup = { balances: { USDT: '100000' }, fillModel: 'queue' };
const synthetic = { recording: undefined, seed: 7, fixed: undefined, given: {}, defaults };
const fixed = { apiKey: 'env-key', apiSecret: 'env-secret' };

describe('keel venue data dir start', () => {
  it('makes fresh credentials without a data dir, and keeps nothing', () => {
    const choice = chooseVenueStart(synthetic, undefined, 1000);
    expect(choice).toMatchObject({ ok: true, restarted: false, start: { seed: 7, startTime: 1000 } });
    if (choice.ok) expect(choice.start.apiKey).toMatch(/^paper-[0-9a-f]{12}$/);
  });

  it('restarts with the feed and credentials of the first start, kept readable by the owner only', () => {
    const dir = aDataDir();
    const first = chooseVenueStart(synthetic, dir, 1000);
    expect(statSync(join(dir, VENUE_START_FILE)).mode & 0o777).toBe(0o600);
    const again = chooseVenueStart(synthetic, dir, 99_000);
    expect(again).toEqual({
      ok: true,
      restarted: true,
      setupInferred: false,
      start: first.ok ? first.start : undefined,
    });
  });

  it('does not keep credentials that came from the environment, and asks for them again at a restart', () => {
    const dir = aDataDir();
    chooseVenueStart({ ...synthetic, fixed }, dir, 1000);
    expect(readFileSync(join(dir, VENUE_START_FILE), 'utf8')).not.toContain('env-secret');
    expect(chooseVenueStart({ ...synthetic, fixed }, dir, 2000)).toMatchObject({
      ok: true,
      start: { ...fixed, startTime: 1000 },
    });
    expect(chooseVenueStart(synthetic, dir, 2000)).toEqual({
      ok: false,
      problem: `${dir} holds a venue that took its credentials from KEEL_API_KEY and KEEL_API_SECRET: set them again`,
    });
  });

  it('refuses another seed or another recording than the one the data dir was started with', () => {
    const dir = aDataDir();
    chooseVenueStart(synthetic, dir, 1000);
    expect(chooseVenueStart({ ...synthetic, seed: 8 }, dir, 2000)).toEqual({
      ok: false,
      problem: `${dir} holds a venue started with --seed 7: start it with the same feed, or use another --data-dir`,
    });
    expect(chooseVenueStart({ ...synthetic, recording: '/data/a.jsonl' }, dir, 2000)).toMatchObject({
      ok: false,
    });
    const replayed = aDataDir();
    chooseVenueStart({ ...synthetic, recording: '/data/a.jsonl' }, replayed, 1000);
    expect(chooseVenueStart({ ...synthetic, recording: '/data/b.jsonl' }, replayed, 2000)).toEqual({
      ok: false,
      problem: `${replayed} holds a venue started with --recording /data/a.jsonl: start it with the same feed, or use another --data-dir`,
    });
    expect(
      chooseVenueStart({ ...synthetic, seed: 9, recording: '/data/a.jsonl' }, replayed, 2000),
    ).toMatchObject({
      ok: true,
      restarted: true,
    });
  });

  it('names a start file it cannot read as one', () => {
    const dir = aDataDir();
    for (const text of ['{"seed":"x"}', '{"seed":']) {
      writeFileSync(join(dir, VENUE_START_FILE), text);
      expect(() => chooseVenueStart(synthetic, dir, 1000)).toThrow(
        `${join(dir, VENUE_START_FILE)} is not a keel venue start file (seed and startTime are missing)`,
      );
    }
  });

  it('keeps the setup of the first start, and refuses a flag that sets another at a restart', () => {
    const dir = aDataDir();
    const given = { fillModel: 'bar' as const, balances: { USDT: '5000' } };
    const first = chooseVenueStart({ ...synthetic, given }, dir, 1000);
    expect(first).toMatchObject({ ok: true, start: { setup: { ...defaults, ...given } } });
    expect(chooseVenueStart(synthetic, dir, 2000)).toMatchObject({
      ok: true,
      restarted: true,
      start: { setup: { balances: { USDT: '5000' }, fillModel: 'bar' } },
    });
    expect(chooseVenueStart({ ...synthetic, given: { fillModel: 'bar' } }, dir, 2000)).toMatchObject({
      ok: true,
    });
    expect(chooseVenueStart({ ...synthetic, given: { fillModel: 'queue' } }, dir, 2000)).toEqual({
      ok: false,
      problem: `${dir} holds a venue started with --fill-model bar: start it with that (or without the flag), or use another --data-dir`,
    });
    expect(
      chooseVenueStart({ ...synthetic, given: { latency: { fixedMs: 5, jitterMs: 0, seed: 1 } } }, dir, 2000),
    ).toEqual({
      ok: false,
      problem: `${dir} holds a venue started with no --latency: start it with that (or without the flag), or use another --data-dir`,
    });
  });

  it('restarts a data dir started before the setup was kept on the setup every venue then had', () => {
    const dir = aDataDir();
    writeFileSync(
      join(dir, VENUE_START_FILE),
      JSON.stringify({ recording: null, seed: 7, startTime: 1000, apiKey: 'k', apiSecret: 's' }),
    );
    expect(chooseVenueStart(synthetic, dir, 2000)).toMatchObject({
      ok: true,
      setupInferred: true,
      start: { setup: { balances: { USDT: '100000', USD: '100000' }, fillModel: 'queue' } },
    });
    expect(chooseVenueStart({ ...synthetic, given: { balances: { USDT: '100000' } } }, dir, 2000)).toEqual({
      ok: false,
      problem: `${dir} holds a venue started before data dirs kept their setup, so with what every venue then had (as --balance USDT=100000 --balance USD=100000 would set): start it with that (or without the flag), or use another --data-dir`,
    });
  });

  it('keeps the loan terms of the first start, reads a setup kept without them as no terms, and refuses other terms', () => {
    const dir = aDataDir();
    const loans = { assets: { 'BINANCE:USDT': { annualRate: 0.08, userQuota: 1000 } } };
    expect(chooseVenueStart({ ...synthetic, given: { loans } }, dir, 1000)).toMatchObject({ ok: true });
    expect(chooseVenueStart(synthetic, dir, 2000)).toMatchObject({ ok: true, start: { setup: { loans } } });
    expect(
      chooseVenueStart(
        {
          ...synthetic,
          given: { loans: { assets: { 'BINANCE:USDT': { annualRate: '0.080', userQuota: '1e3' } } } },
        },
        dir,
        2000,
      ),
    ).toMatchObject({ ok: true });
    expect(chooseVenueStart({ ...synthetic, given: { loans: { assets: {} } } }, dir, 2000)).toEqual({
      ok: false,
      problem: `${dir} holds a venue started with --loans '{assets: {BINANCE:USDT: {annualRate: 0.08, userQuota: 1000}}}': start it with that (or without the flag), or use another --data-dir`,
    });
    const old = aDataDir();
    writeFileSync(
      join(old, VENUE_START_FILE),
      JSON.stringify({
        recording: null,
        seed: 7,
        startTime: 1000,
        setup: defaults,
        apiKey: 'k',
        apiSecret: 's',
      }),
    );
    const restarted = chooseVenueStart(synthetic, old, 2000);
    expect(restarted.ok && restarted.start.setup.loans).toBeUndefined();
    expect(chooseVenueStart({ ...synthetic, given: { loans } }, old, 2000)).toEqual({
      ok: false,
      problem: `${old} holds a venue started with no --loans (no loan terms, as every venue had before --loans): start it with that (or without the flag), or use another --data-dir`,
    });
  });

  it.skipIf(!POSIX_MODES)('creates a missing data dir 0700, its missing parents too', () => {
    const dir = join(aDataDir(), 'venues', 'rehearsal');
    expect(chooseVenueStart(synthetic, dir, 1000).ok).toBe(true);
    expect([modeOf(join(dir, '..')), modeOf(dir)]).toEqual(['700', '700']);
  });
});
