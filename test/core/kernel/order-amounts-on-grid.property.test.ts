import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { limitPrice, orderQty } from '../../../core/kernel/order-amounts.ts';
import { positionSizer } from '../../../core/kernel/position-sizer.ts';
import { D, type Dec, decimalOf } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';

const SYM = 'OKX_SPOT_BTC_USDT';
const satoshi = anInstrument(SYM, {
  tickSize: D('0.00000001'),
  lotSize: D('0.00000001'),
  minSize: D('0.00000001'),
});

/** An instrument whose tick and lot are both `step`. */
function onGrid(step: Dec) {
  return anInstrument(SYM, { tickSize: step, lotSize: step, minSize: step });
}

/** Grid steps: powers of ten from 1 to 1e-8 and a few that are not (0.5, 0.25, 0.05, 0.005). */
const steps = fc.oneof(
  fc.integer({ min: 0, max: 8 }).map((d) => D(10).pow(-d)),
  fc.constantFrom(D('0.5'), D('0.25'), D('0.05'), D('0.005')),
);

/** The amount `value` as every rounding entry point rounds it (qty, BUY limit, SELL limit). */
function roundedEverywhere(value: number, step: Dec): Dec[] {
  const spec = onGrid(step);
  return [orderQty(value, spec), limitPrice(value, 'BUY', spec), limitPrice(value, 'SELL', spec)];
}

describe('round: true keeps a number already on the grid, whatever its number of digits', () => {
  it('qty 12345.12345678 (13 significant digits, on the 1e-8 lot) stays as it is, never rounds up', () => {
    expect(orderQty(12345.12345678, satoshi).toFixed()).toBe('12345.12345678');
  });

  it('BUY limit 98765.12345678 on a 1e-8 tick stays, never rounds up (more aggressive)', () => {
    expect(limitPrice(98765.12345678, 'BUY', satoshi).toFixed()).toBe('98765.12345678');
  });

  it('position sizing units 12345.12345678 on a 1e-8 lot stays as it is', () => {
    const sizer = positionSizer({
      instrument: () => satoshi,
      equity: () => D(0),
      referencePrice: () => undefined,
    });
    expect(sizer.units(SYM, 12345.12345678).toFixed()).toBe('12345.12345678');
  });

  it('any value on the grid with up to 15 significant digits comes back unchanged as qty, BUY and SELL limit', () => {
    fc.assert(
      fc.property(steps, fc.integer({ min: 1, max: 9_999_999_999_999 }), (step, k) => {
        const value = step.mul(k);
        for (const rounded of roundedEverywhere(value.toNumber(), step))
          expect(rounded.toFixed()).toBe(value.toFixed());
      }),
    );
  });
});

/** Grid indexes, small ones and large ones (1e11 steps: 1000 on a 1e-8 grid, times m up to 1e6). */
const stepIndexes = fc.oneof(
  fc.integer({ min: 1, max: 1_000_000 }),
  fc.bigInt({ min: 1n, max: 100_000_000_000n }).map(Number),
);

describe('round: true removes float noise from numbers meant to be on the grid', () => {
  it('33.4 * 3 (100.19999999999999) is 100.2 on a 0.1 tick, BUY and SELL', () => {
    expect(roundedEverywhere(33.4 * 3, D('0.1')).map((d) => d.toFixed())).toEqual([
      '100.2',
      '100.2',
      '100.2',
    ]);
  });

  it('i steps times m, or i steps plus j steps, computed with numbers, land on exactly i * m (i + j) steps', () => {
    fc.assert(
      fc.property(steps, stepIndexes, fc.integer({ min: 1, max: 1000 }), (step, i, m) => {
        const a = step.mul(i).toNumber();
        const b = step.mul(m).toNumber();
        for (const rounded of roundedEverywhere(a * m, step)) expect(rounded.eq(step.mul(i * m))).toBe(true);
        for (const rounded of roundedEverywhere(a + b, step)) expect(rounded.eq(step.mul(i + m))).toBe(true);
      }),
    );
  });
});

describe('round: true never rounds past the value by more than float noise', () => {
  it('qty and BUY limit are at most the exact value, a SELL limit at least, give or take a few ulps of the value', () => {
    fc.assert(
      fc.property(
        steps,
        fc.double({ min: 1e-6, max: 1e7, noNaN: true, noDefaultInfinity: true }),
        (step, value) => {
          const [qty, buy, sell] = roundedEverywhere(value, step) as [Dec, Dec, Dec];
          const exact = decimalOf(value);
          const noise = exact.abs().mul(Number.EPSILON * 4);
          expect(qty.lte(exact.add(noise))).toBe(true);
          expect(buy.lte(exact.add(noise))).toBe(true);
          expect(sell.gte(exact.sub(noise))).toBe(true);
        },
      ),
    );
  });
});
