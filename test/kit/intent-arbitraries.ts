import fc from 'fast-check';
import type { Intent, OrderSide, OrderType, PositionSide, TimeInForce } from '../../core/model/index.ts';
import { decimalOnGrid } from './fill-arbitraries.ts';

const SYMS = ['BINANCE_PERP_BTC_USDT', 'OKX_PERP_ETH_USDT', 'OKX_PERP_HALT_USDT', 'EDX_PERP_NOPE_USDT'];

/**
 * Random intents of every kind, valid and invalid alike: prices on and off the 0.1 tick, quantities
 * on and off the 0.001 lot, known and unknown syms, cancels, modifies and closes. Refs are
 * unique per generated value only by chance; tests that need uniqueness renumber them.
 * @returns an arbitrary intent
 */
export function arbitraryIntent(): fc.Arbitrary<Intent> {
  const sym = fc.constantFrom(...SYMS);
  const placeOrder = fc
    .record({
      sym,
      side: fc.constantFrom<OrderSide>('BUY', 'SELL'),
      orderType: fc.constantFrom<OrderType>('LIMIT', 'MARKET'),
      qty: fc.oneof(decimalOnGrid('0.001', 0, 20_000), decimalOnGrid('0.0001', 1, 200_000)),
      price: fc.option(fc.oneof(decimalOnGrid('0.1', 800, 1200), decimalOnGrid('0.01', 8000, 12000)), {
        nil: undefined,
      }),
      timeInForce: fc.constantFrom<TimeInForce>('GTC', 'IOC', 'GTD', 'GTX'),
      expiryDate: fc.option(fc.constantFrom('2026-01-31', '2025-01-01', '31/01/2026'), { nil: undefined }),
      reduceOnly: fc.boolean(),
      positionSide: fc.constantFrom<PositionSide>('NONE', 'NONE', 'LONG'),
    })
    .map((fields): Intent => ({ kind: 'placeOrder', ref: 'r', ...fields }));
  const cancel = sym.map((s): Intent => ({ kind: 'cancelOrder', ref: 'r', target: 't', sym: s }));
  const modify = fc
    .record({ sym, price: fc.option(decimalOnGrid('0.1', 800, 1200), { nil: undefined }) })
    .map((fields): Intent => ({ kind: 'modifyOrder', ref: 'r', target: 'open-1', ...fields }));
  const closePositions = fc.integer({ min: 0, max: 25 }).map(
    (n): Intent => ({
      kind: 'closePositions',
      ref: 'r',
      symList: Array.from({ length: n }, () => SYMS[0] as string),
    }),
  );
  return fc.oneof(
    { weight: 6, arbitrary: placeOrder },
    { weight: 1, arbitrary: cancel },
    { weight: 1, arbitrary: modify },
    { weight: 1, arbitrary: closePositions },
  );
}
