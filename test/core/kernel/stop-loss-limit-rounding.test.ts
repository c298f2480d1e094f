import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tpSlOf } from '../../../core/kernel/order-amounts.ts';
import { D, type InstrumentSpec } from '../../../core/model/index.ts';

const spec = { tickSize: D('0.1'), lotSize: D('0.001') } as unknown as InstrumentSpec;

describe('round: true on a stop-loss limit price: away from its trigger, aggressively for the exit side', () => {
  it("keeps a long's SL limit below its trigger: 94.91 is meant as 'down to ~94.9', not 'no lower than 95'", () => {
    const sl = tpSlOf({ triggerPrice: 95, price: 94.91 }, 'BUY', spec, 'sl');
    expect(sl.triggerPrice.toFixed()).toBe('95');
    // Passive rounding of the SELL exit lifted it to 95 = the trigger: no room for the fall the
    // stop is there for, so a gap through 95 left the stop-limit resting unfilled.
    expect(sl.price.toFixed()).toBe('94.9');
    expect(sl.price.lt(sl.triggerPrice)).toBe(true);
  });

  it("keeps a short's SL limit above its trigger", () => {
    const sl = tpSlOf({ triggerPrice: 105, price: 105.09 }, 'SELL', spec, 'sl');
    expect(sl.price.toFixed()).toBe('105.1');
    expect(sl.price.gt(sl.triggerPrice)).toBe(true);
  });

  it('never rounds a stop-loss limit to the near side of where it was written, for either side', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.boolean(), (hundredths, long) => {
        const written = hundredths / 100;
        const sl = tpSlOf({ triggerPrice: written, price: written }, long ? 'BUY' : 'SELL', spec, 'sl');
        // A long's SELL exit may only go lower, a short's BUY exit only higher.
        if (long) expect(sl.price.lte(D(written))).toBe(true);
        else expect(sl.price.gte(D(written))).toBe(true);
      }),
    );
  });

  it("still rounds a take-profit's limit passively for the exit side (a long's SELL exit up)", () => {
    expect(tpSlOf({ triggerPrice: 110, price: 109.81 }, 'BUY', spec, 'tp').price.toFixed()).toBe('109.9');
    expect(tpSlOf({ triggerPrice: 90, price: 90.19 }, 'SELL', spec, 'tp').price.toFixed()).toBe('90.1');
  });
});
