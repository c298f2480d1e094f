import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseVenueStart } from '../../../../config/cli/commands/venue-data-dir.ts';
import type { VenueSetup } from '../../../../config/cli/commands/venue-setup.ts';
import {
  venueBalanceOption,
  venueFillModelOption,
  venueLatencyOption,
} from '../../../../config/cli/venue-option-parsers.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const aDataDir = tempDirsRemovedAfterEach('venue-restart-same-setup-');
const defaults: VenueSetup = { balances: { USDT: '100000', USD: '100000' }, fillModel: 'queue' };
const asked = { recording: undefined, seed: 7, fixed: undefined, given: {}, defaults };

// The commit reviewer's run: a restart given the very setup the data dir was started with was
// refused when the flags spelt it differently (balances in another order, the fill model as a map),
// with a message telling the user to start it "with" what they already gave.
describe('keel venue restart with the same setup spelt differently', () => {
  it('accepts the same balances given in another order', () => {
    const dir = aDataDir();
    expect(chooseVenueStart(asked, dir, 1000).ok).toBe(true);
    const balances = venueBalanceOption('USDT=100000', venueBalanceOption('USD=100000'));
    const again = chooseVenueStart({ ...asked, given: { balances } }, dir, 2000);
    expect(again).toMatchObject({ ok: true, restarted: true });
  });

  it('accepts the same fill model given as a map', () => {
    const dir = aDataDir();
    expect(chooseVenueStart(asked, dir, 1000).ok).toBe(true);
    const again = chooseVenueStart(
      { ...asked, given: { fillModel: venueFillModelOption('{name: queue}') } },
      dir,
      2000,
    );
    expect(again).toMatchObject({ ok: true, restarted: true });
  });

  it('accepts balances in any order and amounts in any notation, and refuses another amount or asset', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(['USDT=100000', 'USD=1e5'], { minLength: 2 }),
        fc.constantFrom('100000', '1e5', '100000.000'),
        fc.constantFrom('USDT=100000.01', 'USDC=100000'),
        (flags, usd, other) => {
          const dir = aDataDir();
          const kept = { ...asked, given: { balances: { USD: usd, USDT: '100000' } } };
          expect(chooseVenueStart(kept, dir, 1000).ok).toBe(true);
          const balances = flags.reduce<Record<string, string>>(
            (sofar, flag) => venueBalanceOption(flag, sofar),
            {},
          );
          expect(chooseVenueStart({ ...asked, given: { balances } }, dir, 2000).ok).toBe(true);
          const changed = venueBalanceOption(other, venueBalanceOption('USD=100000'));
          expect(chooseVenueStart({ ...asked, given: { balances: changed } }, dir, 2000).ok).toBe(false);
          const fewer = venueBalanceOption('USD=100000');
          expect(chooseVenueStart({ ...asked, given: { balances: fewer } }, dir, 2000).ok).toBe(false);
        },
      ),
      { numRuns: 20 },
    );
  });

  it('takes a fill model or latency as the venue runs it, defaults filled in, and refuses another', () => {
    const dir = aDataDir();
    const given = { fillModel: venueFillModelOption('touch'), latency: venueLatencyOption('25') };
    expect(chooseVenueStart({ ...asked, given }, dir, 1000).ok).toBe(true);
    const same = {
      fillModel: venueFillModelOption('{name: touch, partialFills: true, slippageTicks: 0}'),
      latency: venueLatencyOption('{jitterMs: 0, seed: 1, fixedMs: 25}'),
    };
    expect(chooseVenueStart({ ...asked, given: same }, dir, 2000).ok).toBe(true);
    for (const other of [
      { fillModel: venueFillModelOption('{name: touch, slippageTicks: 1}') },
      { latency: venueLatencyOption('{fixedMs: 25, seed: 2}') },
    ])
      expect(chooseVenueStart({ ...asked, given: other }, dir, 2000).ok).toBe(false);
  });
});

// Session 29's note: `userData: {fixedMs: 0}` and an absent userData (no marketData leg either) are
// the same latency to the venue, yet a restart giving one against a data dir kept with the other
// was refused.
describe('keel venue restart with the same User Data delay written two ways', () => {
  it('takes an absent userData as the leg the venue applies, and still refuses another delay', () => {
    const dir = aDataDir();
    const given = { latency: venueLatencyOption('{fixedMs: 25}') };
    expect(chooseVenueStart({ ...asked, given }, dir, 1000).ok).toBe(true);
    const same = [
      '{fixedMs: 25, userData: {fixedMs: 0}}',
      '{fixedMs: 25, userData: {fixedMs: 0, jitterMs: 0}}',
    ];
    for (const text of same)
      expect(chooseVenueStart({ ...asked, given: { latency: venueLatencyOption(text) } }, dir, 2000).ok).toBe(
        true,
      );
    for (const text of ['{fixedMs: 25, userData: {fixedMs: 3}}', '{fixedMs: 25, marketData: {fixedMs: 3}}'])
      expect(chooseVenueStart({ ...asked, given: { latency: venueLatencyOption(text) } }, dir, 2000).ok).toBe(
        false,
      );
  });

  it('takes an absent userData as the marketData leg it defaults to', () => {
    const dir = aDataDir();
    const given = { latency: venueLatencyOption('{marketData: {fixedMs: 4}}') };
    expect(chooseVenueStart({ ...asked, given }, dir, 1000).ok).toBe(true);
    const same = venueLatencyOption('{marketData: {fixedMs: 4}, userData: {fixedMs: 4}}');
    expect(chooseVenueStart({ ...asked, given: { latency: same } }, dir, 2000).ok).toBe(true);
    const other = venueLatencyOption('{marketData: {fixedMs: 4}, userData: {fixedMs: 0}}');
    expect(chooseVenueStart({ ...asked, given: { latency: other } }, dir, 2000).ok).toBe(false);
  });
});
