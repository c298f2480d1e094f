import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { badQtyOrPrice } from '../../../backtest/sim/order-parameters.ts';
import { D, type Dec, type InstrumentSpec, isOnStep } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';

/** The size checks on Decimals alone: what the number-first checks must always agree with. */
function exactBadQtyOrPrice(
  params: { qty: Dec; orderType: 'LIMIT' | 'MARKET'; price?: Dec },
  spec: InstrumentSpec,
): string | undefined {
  const { qty, price } = params;
  if (!qty.gt(0) || !isOnStep(qty, spec.lotSize)) return 'lot';
  if (qty.lt(spec.minSize)) return 'minSize';
  if (params.orderType === 'LIMIT') {
    if (!price?.gt(0) || !isOnStep(price, spec.tickSize)) return 'tick';
    if (qty.gt(spec.maxLimitSize)) return 'maxLimitSize';
    if (qty.mul(price).mul(spec.contractSize).lt(spec.minNotional)) return 'minNotional';
    return undefined;
  }
  if (price && !price.isZero()) return 'market price';
  if (qty.gt(spec.maxMarketSize)) return 'maxMarketSize';
  return undefined;
}

/** Which check a reason names, in the words of {@link exactBadQtyOrPrice}. */
function checkOf(reason: string | undefined): string | undefined {
  if (reason === undefined) return undefined;
  if (reason.startsWith('qty must be')) return 'lot';
  if (reason.includes('minimum size')) return 'minSize';
  if (reason.includes('on the tick')) return 'tick';
  if (reason.includes('maxLimitSize')) return 'maxLimitSize';
  if (reason.includes('minNotional')) return 'minNotional';
  if (reason.includes('has price 0')) return 'market price';
  if (reason.includes('maxMarketSize')) return 'maxMarketSize';
  return reason;
}

/** Decimals of a few digits at a given scale, many of them on or next to the limits used below. */
const decimalAt = (scale: number) =>
  fc.integer({ min: -3, max: 2_000_000 }).map((units) => D(units).div(10 ** scale));

describe('order size checks', () => {
  it('decide like the exact Decimal checks, on and next to every limit', () => {
    const spec = anInstrument('BINANCE_PERP_BTC_USDT', {
      lotSize: D('0.001'),
      minSize: D('0.003'),
      minNotional: D('5'),
      maxLimitSize: D('1000'),
      maxMarketSize: D('100'),
      contractSize: D('0.1'),
      tickSize: D('0.01'),
    });
    fc.assert(
      fc.property(
        fc.oneof(decimalAt(3), fc.constantFrom(D('0.003'), D('1000'), D('100'), D('50'), D('1000.001'))),
        fc.oneof(decimalAt(2), fc.constantFrom(D('1'), D('0.01'), D('100'), D('0.1'))),
        fc.constantFrom<'LIMIT' | 'MARKET'>('LIMIT', 'MARKET'),
        (qty, price, orderType) => {
          const params = orderType === 'LIMIT' ? { qty, orderType, price } : { qty, orderType };
          expect(checkOf(badQtyOrPrice(params, spec))).toBe(exactBadQtyOrPrice(params, spec));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('refuses a notional one lot under minNotional and accepts it at minNotional exactly', () => {
    const spec = anInstrument('BINANCE_PERP_BTC_USDT', { minNotional: D('5'), contractSize: D('0.1') });
    // 0.5 x 100 x 0.1 = 5; 0.499 x 100 x 0.1 = 4.99
    expect(badQtyOrPrice({ qty: D('0.5'), orderType: 'LIMIT', price: D('100') }, spec)).toBeUndefined();
    expect(badQtyOrPrice({ qty: D('0.499'), orderType: 'LIMIT', price: D('100') }, spec)).toBe(
      'notional is below minNotional 5',
    );
  });
});
