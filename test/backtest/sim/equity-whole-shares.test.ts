import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { commandRejection } from '../../../core/venue/live/command-rejection.ts';
import { placeOrderArgsFromIntent } from '../../../core/venue/mapping/place-order-args-mapping.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aMarket, aQuote, aSim } from '../../kit/sim-builders.ts';

const AAPL = 'US_EQUITY_AAPL';
const T = Date.parse('2026-03-09T19:00:00Z');
// A spec not made from a config (which refuses a fractional lot on an equity): fractional shares.
const fractional = anInstrument(AAPL, {
  tickSize: D('0.01'),
  lotSize: D('0.01'),
  minSize: D('0.01'),
  minNotional: D('0'),
  settleAsset: 'USD',
});

describe('sim venue: a US equity order for a fractional share (the spec PLACE_ORDER: qty integer)', () => {
  it('is refused with the code the live adapter reports for it (400001) and fills nothing, as paper and live cannot send it', () => {
    const t = aSim({
      instruments: [fractional],
      startingBalances: { USD: D('100000') },
      placementRefusals: 'commandRejected',
    });
    t.sim.onMarket(aQuote(T, 99.9, 1000, 100, 1000, AAPL));
    const half = aMarket('half', 'BUY', '0.5', { sym: AAPL, timeInForce: 'FAK' });
    t.send(half);
    t.sim.advanceTo(T + 1);
    let live: unknown;
    try {
      placeOrderArgsFromIntent(half, 'acct');
    } catch (error) {
      live = error;
    }
    const liveCode = commandRejection({ strategyId: 's', intent: half }, live, T).code;
    expect(liveCode).toBe(400001);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code, e.message])).toEqual([
      [
        'half',
        liveCode,
        '400001 bad parameters: qty must be a whole number of shares on a US equity (US_EQUITY_AAPL): PLACE_ORDER carries whole shares only',
      ],
    ]);
    expect(t.of('execution')).toEqual([]);
    expect(t.of('position')).toEqual([]);
  });

  it('fills a whole number of shares on the same spec', () => {
    const t = aSim({ instruments: [fractional], startingBalances: { USD: D('100000') } });
    t.sim.onMarket(aQuote(T, 99.9, 1000, 100, 1000, AAPL));
    t.send(aMarket('two', 'BUY', '2', { sym: AAPL, timeInForce: 'FAK' }));
    t.sim.advanceTo(T + 1);
    expect(t.of('position').at(-1)?.position.positionQty.toFixed()).toBe('2');
  });
});
