import { describe, expect, it } from 'vitest';
import {
  venueBalanceOption,
  venueFillModelOption,
  venueLatencyOption,
} from '../../../config/cli/venue-option-parsers.ts';

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
});
