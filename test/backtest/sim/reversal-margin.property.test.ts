import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Dec, PositionSide } from '../../../core/model/index.ts';
import { D, ZERO } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimit, aMarket, aQuote, aSim, BTC } from '../../kit/sim-builders.ts';

const BALANCE = 10_000;

/** A position, a price move and one order on it. */
interface Case {
  readonly mode: 'NET' | 'BOTH';
  readonly leverage: number;
  /** Signed position opened at entry (0 = flat). */
  readonly position: number;
  readonly entry: number;
  /** The price when the order arrives (bid = ask = mark). */
  readonly price: number;
  readonly side: 'BUY' | 'SELL';
  /** BOTH mode: the leg the order trades. */
  readonly leg: 'LONG' | 'SHORT';
  readonly qty: number;
  /** 0 for a market order, else how far below (BUY) or above (SELL) the price its limit rests. */
  readonly limitOffset: number;
}

const arbitraryCase: fc.Arbitrary<Case> = fc.record({
  mode: fc.constantFrom('NET', 'BOTH'),
  leverage: fc.constantFrom(1, 2, 4),
  position: fc.integer({ min: -60, max: 60 }),
  entry: fc.integer({ min: 50, max: 150 }),
  price: fc.integer({ min: 50, max: 150 }),
  side: fc.constantFrom('BUY', 'SELL'),
  leg: fc.constantFrom('LONG', 'SHORT'),
  qty: fc.integer({ min: 1, max: 200 }),
  limitOffset: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20 })),
});

/** The order's limit price, or the price for a market order. */
const orderPrice = (c: Case): number =>
  c.limitOffset === 0 ? c.price : c.side === 'BUY' ? c.price - c.limitOffset : c.price + c.limitOffset;

/**
 * What the venue must decide, computed by hand (no fees here): 'reduces' for an order that only
 * closes, else whether the equity carries the margin the account needs with it. The position locks
 * |q| x price / leverage. An order that opens on a flat position or adds to it needs its own
 * notional / leverage on top. A reversal (NET) leaves the opposite position, whose margin replaces
 * the closed one's: the account then needs the larger of the two (an account whose positions
 * already need more than its equity can only reduce). In BOTH mode the legs are apart: a BUY on
 * SHORT or a SELL on LONG only closes, a BUY LONG or a SELL SHORT opens its leg in full.
 */
function expected(c: Case): 'reduces' | 'fits' | 'exceeds' {
  const lev = D(c.leverage);
  const equity = D(BALANCE).plus(D(c.position).mul(c.price - c.entry));
  const held = D(Math.abs(c.position)).mul(c.price).div(lev);
  const price = D(orderPrice(c));
  let needed: Dec;
  if (c.mode === 'BOTH') {
    if ((c.leg === 'LONG') !== (c.side === 'BUY')) return 'reduces';
    needed = held.plus(D(c.qty).mul(price).div(lev));
  } else {
    const closable = c.side === 'BUY' ? Math.max(0, -c.position) : Math.max(0, c.position);
    const opening = Math.max(0, c.qty - closable);
    if (opening === 0) return 'reduces';
    const opened = D(opening).mul(price).div(lev);
    needed = closable > 0 ? maxOf(held, opened) : held.plus(opened);
  }
  return equity.minus(needed).isNegative() ? 'exceeds' : 'fits';
}

function maxOf(a: Dec, b: Dec): Dec {
  return a.gt(b) ? a : b;
}

/** Runs the case on a fee-free sim and says whether the order was refused for margin. */
function refusedForMargin(c: Case): boolean {
  const t = aSim({
    instruments: [
      anInstrument(BTC, {
        maxMarketSize: D('1000'),
        fees: { maker: ZERO, taker: ZERO, markup: ZERO, fixedPerFill: ZERO },
      }),
    ],
    startingBalances: { USDT: D(BALANCE) },
    leverage: { [BTC]: D(c.leverage) },
    positionMode: c.mode,
  });
  const legOf = (qty: number): PositionSide => (c.mode === 'NET' ? 'NONE' : qty > 0 ? 'LONG' : 'SHORT');
  t.sim.onMarket(aQuote(0, c.entry, 1000, c.entry, 1000));
  if (c.position !== 0) {
    const side = c.position > 0 ? 'BUY' : 'SELL';
    t.send(aMarket('position', side, String(Math.abs(c.position)), { positionSide: legOf(c.position) }));
  }
  t.sim.onMarket(aQuote(1, c.price, 1000, c.price, 1000));
  const positionSide: PositionSide = c.mode === 'NET' ? 'NONE' : c.leg;
  t.send(
    c.limitOffset === 0
      ? aMarket('o', c.side, String(c.qty), { positionSide })
      : aLimit('o', c.side, String(c.qty), String(orderPrice(c)), { positionSide }),
  );
  t.sim.advanceTo(2);
  const rejections = t
    .of('order')
    .filter((e) => e.order.orderState === 'REJECTED')
    .map((e) => `${e.order.clientOrderId} ${e.order.reason}`);
  // a closing order on an empty leg is refused for that (401097), never for anything else
  expect(rejections.filter((r) => !r.startsWith('o 401023') && !r.startsWith('o 401097'))).toEqual([]);
  return rejections.some((r) => r.startsWith('o 401023'));
}

describe('sim venue: margin of orders on a position (property)', () => {
  it('never refuses an order that only reduces or that fits the equity with the margin it frees, and always refuses one that exceeds it', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(arbitraryCase, (c) => {
        const want = expected(c);
        seen.add(want);
        expect(refusedForMargin(c)).toBe(want === 'exceeds');
      }),
      { numRuns: 300 },
    );
    expect([...seen].sort()).toEqual(['exceeds', 'fits', 'reduces']);
  });
});
