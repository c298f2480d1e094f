import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  algoLimitPrice,
  limitPrice,
  orderQty,
  tpSlOf,
  triggerPrice,
} from '../../../core/kernel/order-amounts.ts';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';

const spec = anInstrument('BINANCE_PERP_BTC_USDT', { tickSize: D('0.1'), lotSize: D('1'), minSize: D('1') });
const fine = anInstrument('BINANCE_PERP_BTC_USDT', {
  tickSize: D('0.01'),
  lotSize: D('0.001'),
  minSize: D('0.001'),
});

describe('round: true on prices and quantities computed with numbers', () => {
  it('rounds a BUY limit of 33.4 * 3 (100.19999999999999) to 100.2, not a tick lower', () => {
    expect(limitPrice(33.4 * 3, 'BUY', spec).toFixed()).toBe('100.2');
  });

  it('rounds a SELL limit of 1003 * 0.1 (100.30000000000001) to 100.3, not a tick higher', () => {
    expect(limitPrice(1003 * 0.1, 'SELL', spec).toFixed()).toBe('100.3');
  });

  it('keeps a qty of 0.57 * 100 (56.99999999999999) at 57 lots', () => {
    expect(orderQty(0.57 * 100, spec).toFixed()).toBe('57');
  });

  it('still rounds a price off the tick passively and a qty off the lot down', () => {
    expect(limitPrice(100.26, 'BUY', spec).toFixed()).toBe('100.2');
    expect(limitPrice(100.21, 'SELL', spec).toFixed()).toBe('100.3');
    expect(orderQty(57.9, spec).toFixed()).toBe('57');
  });

  it('keeps a Decimal or a string exactly: only numbers are freed of float noise', () => {
    expect(limitPrice('100.1999999999999', 'BUY', spec).toFixed()).toBe('100.1');
    expect(orderQty(D('56.99999999999999'), spec).toFixed()).toBe('56');
  });

  it('puts k ticks and k lots computed as k * step on exactly k steps', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), (k) => {
        const steps = D(k);
        expect(limitPrice(k * 0.01, 'BUY', fine).eq(steps.mul('0.01'))).toBe(true);
        expect(limitPrice(k * 0.01, 'SELL', fine).eq(steps.mul('0.01'))).toBe(true);
        expect(orderQty(k * 0.001, fine).eq(steps.mul('0.001'))).toBe(true);
      }),
    );
  });

  it('rounds a trigger of 100.35 - 0.2 (100.14999999999999) as it rounds 100.15: the noise is taken off at the half tick', () => {
    expect(triggerPrice(100.15, spec).toFixed()).toBe('100.2');
    expect(triggerPrice(100.35 - 0.2, spec).toFixed()).toBe('100.2');
    expect(triggerPrice(33.4 * 3, spec).toFixed()).toBe('100.2');
    expect(triggerPrice('100.14999999999999', spec).toFixed()).toBe('100.1');
  });

  it('rounds a trigger exactly half a tick off up to the tick above, whatever the parity of the tick: 100.15 to 100.2, 100.25 to 100.3', () => {
    expect(triggerPrice('100.15', spec).toFixed()).toBe('100.2');
    expect(triggerPrice('100.25', spec).toFixed()).toBe('100.3');
    expect(triggerPrice(100.25, spec).toFixed()).toBe('100.3');
    expect(triggerPrice('100.2499', spec).toFixed()).toBe('100.2');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), (k) => {
        const half = D(k).add('0.5').mul('0.01');
        const above = D(k + 1).mul('0.01');
        expect(triggerPrice(half, fine).eq(above)).toBe(true);
        expect(tpSlOf({ triggerPrice: half }, 'BUY', fine, 'sl').triggerPrice.eq(above)).toBe(true);
      }),
    );
  });

  it('rounds a trigger computed as (k + 1/2) ticks with float noise as the exact half tick rounds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: -3, max: 3 }), (k, ulps) => {
        const half = (k + 0.5) * 0.01;
        const noisy = half + ulps * Number.EPSILON * half;
        const exact = D(k).add('0.5').mul('0.01').toNearest('0.01', D.ROUND_HALF_CEIL);
        expect(triggerPrice(noisy, fine).eq(exact)).toBe(true);
      }),
    );
  });

  it("rounds a take-profit's limit price passively for its exit side: a long's SELL exit up, a short's BUY exit down", () => {
    const longTp = tpSlOf({ triggerPrice: 110, price: 109.85 }, 'BUY', spec, 'tp');
    expect([longTp.triggerPrice.toFixed(), longTp.price.toFixed()]).toEqual(['110', '109.9']);
    expect(tpSlOf({ triggerPrice: 90, price: 90.15 }, 'SELL', spec, 'tp').price.toFixed()).toBe('90.1');
    expect(tpSlOf({ triggerPrice: 90.04 }, 'SELL', spec, 'sl')).toMatchObject({ triggerType: 'LastPrice' });
    expect(tpSlOf({ triggerPrice: 90.04 }, 'SELL', spec, 'sl').price.isZero()).toBe(true);
  });
});

describe("round: true on an algo order's limit price", () => {
  it("rounds a stop's limit away from its trigger: a SELL stop at 95 limit 94.91 to 94.9, a BUY stop at 105 limit 105.09 to 105.1", () => {
    expect(algoLimitPrice(94.91, D(95), 'SELL', spec).toFixed()).toBe('94.9');
    expect(algoLimitPrice(105.09, D(105), 'BUY', spec).toFixed()).toBe('105.1');
  });

  it('rounds a limit on the far side of its trigger passively for its side, and one on its trigger as written', () => {
    expect(algoLimitPrice(90.05, D(100), 'BUY', spec).toFixed()).toBe('90');
    expect(algoLimitPrice(110.01, D(100), 'SELL', spec).toFixed()).toBe('110.1');
    expect(algoLimitPrice(100, D(100), 'SELL', spec).toFixed()).toBe('100');
  });

  it('never rounds a limit off its trigger onto it or across it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 100_000 }),
        fc.integer({ min: -50, max: 50 }).filter((d) => d !== 0),
        fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
        (ticks, hundredths, side) => {
          const trigger = D(ticks).mul('0.1');
          const written = trigger.plus(D(hundredths).mul('0.001'));
          const rounded = algoLimitPrice(written, trigger, side, spec);
          expect(rounded.minus(trigger).s).toBe(written.minus(trigger).s);
          expect(rounded.eq(trigger)).toBe(false);
        },
      ),
    );
  });
});
