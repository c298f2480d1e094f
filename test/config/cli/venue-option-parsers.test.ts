import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  venueBalanceOption,
  venueFillModelOption,
  venueLatencyOption,
  venueLoansOption,
} from '../../../config/cli/venue-option-parsers.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const aDir = tempDirsRemovedAfterEach('venue-option-parsers-');

describe('keel venue option parsers', () => {
  it('collects --balance ASSET=AMOUNT as paper.startingCash takes them, refusing other forms', () => {
    expect(venueBalanceOption('USD=5e3', venueBalanceOption('USDT=100000.50'))).toEqual({
      USDT: '100000.5',
      USD: '5000',
    });
    expect(() => venueBalanceOption('USDT')).toThrow('must be ASSET=AMOUNT, e.g. USDT=100000.');
    expect(() => venueBalanceOption('USDT=1', { USDT: '2' })).toThrow('names USDT twice.');
    expect(() => venueBalanceOption('USDT=-1')).toThrow('USDT=-1: USDT: must be positive.');
    expect(() => venueBalanceOption('usdt=1')).toThrow(
      'usdt=1: usdt: is not a valid key: it must be an upper-case asset code.',
    );
  });

  it('takes --fill-model as a name or a map with the settings paper.fillModel takes', () => {
    expect(venueFillModelOption('bar')).toBe('bar');
    expect(venueFillModelOption('{name: queue, partialFills: false, slippageTicks: 1}')).toEqual({
      name: 'queue',
      partialFills: false,
      slippageTicks: 1,
    });
    expect(() => venueFillModelOption('fifo')).toThrow('must be a fill model name (');
    expect(() => venueFillModelOption('{name: queue, lag: 1}')).toThrow();
  });

  it('takes --latency as the order-entry delay in ms or a map as paper.latency takes it', () => {
    expect(venueLatencyOption('25')).toEqual({ fixedMs: 25, jitterMs: 0, seed: 1 });
    expect(venueLatencyOption('{fixedMs: 5, jitterMs: 2, seed: 3, userData: {fixedMs: 1}}')).toEqual({
      fixedMs: 5,
      jitterMs: 2,
      seed: 3,
      userData: { fixedMs: 1, jitterMs: 0 },
    });
    expect(() => venueLatencyOption('-5')).toThrow(
      'must be a delay in ms or a map like {fixedMs: 25, jitterMs: 10}',
    );
    expect(() => venueLatencyOption('soon')).toThrow('must be a delay in ms');
  });

  it('takes --loans as a map or a YAML file with what paper.loans takes, refusing terms paper.loans refuses', () => {
    const terms =
      '{assets: {"BINANCE:USDT": {annualRate: 0.08, userQuota: 5e4, minBorrow: 10}}, maxBorrowLtv: 0.4}';
    expect(venueLoansOption(terms)).toEqual({
      assets: { 'BINANCE:USDT': { annualRate: 0.08, userQuota: 50000, minBorrow: 10 } },
      maxBorrowLtv: 0.4,
    });
    const file = join(aDir(), 'loans.yaml');
    writeFileSync(file, 'assets:\n  OKX:ETH:\n    hourlyRate: "0.00001"\n    userQuota: 20\n');
    expect(venueLoansOption(file)).toEqual({
      assets: { 'OKX:ETH': { hourlyRate: '0.00001', userQuota: 20 } },
    });
    expect(() => venueLoansOption('{assets: {"BINANCE:USDT": {userQuota: 1}}}')).toThrow(
      'assets.BINANCE:USDT: needs exactly one of annualRate or hourlyRate.',
    );
    expect(() => venueLoansOption(join(aDir(), 'missing.yaml'))).toThrow(
      'must be a map like {assets: {"BINANCE:USDT": {annualRate: 0.08, userQuota: 50000}}} or a YAML file holding one',
    );
  });
});
