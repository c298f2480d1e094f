import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Dec, PositionSide } from '../../../core/model/index.ts';
import { D, floorToStep, ZERO } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimit, aMarket, aQuote, aSim, BTC } from '../../kit/sim-builders.ts';

const BALANCE = 10_000;
const LOT = D('0.001');

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
  /** The order's quantity, unless `atEdge` gives it. */
  readonly qty: number;
  /** Size the order to the largest lot whose margin alone fits, so that its fee decides. */
  readonly atEdge: boolean;
  /** 0 for a market order, else how far below (BUY) or above (SELL) the price its limit rests. */
  readonly limitOffset: number;
  /** Taker rate and fixed commission per order (none, or 10 bps + 1). */
  readonly fees: { readonly rate: string; readonly perOrder: string };
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
  atEdge: fc.boolean(),
  limitOffset: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20 })),
  fees: fc.constantFrom({ rate: '0', perOrder: '0' }, { rate: '0.001', perOrder: '1' }),
});

/** The order's limit price, or the price for a market order. */
const orderPrice = (c: Case): number =>
  c.limitOffset === 0 ? c.price : c.side === 'BUY' ? c.price - c.limitOffset : c.price + c.limitOffset;

/** Taker fee of qty at price: rate x notional + the fixed commission per order. */
const feeOf = (c: Case, qty: Dec, price: number): Dec =>
  qty.mul(price).mul(c.fees.rate).plus(c.fees.perOrder);

/** The account before the order, by hand: equity after the entry's fee and the move, and the margin the position locks at the new price. */
function accountOf(c: Case): { equity: Dec; held: Dec; closable: Dec; opensLeg: boolean } {
  const entryFee = c.position === 0 ? ZERO : feeOf(c, D(Math.abs(c.position)), c.entry);
  const equity = D(BALANCE)
    .minus(entryFee)
    .plus(D(c.position).mul(c.price - c.entry));
  const held = D(Math.abs(c.position)).mul(c.price).div(c.leverage);
  if (c.mode === 'BOTH')
    return { equity, held, closable: ZERO, opensLeg: (c.leg === 'LONG') === (c.side === 'BUY') };
  const closable = D(c.side === 'BUY' ? Math.max(0, -c.position) : Math.max(0, c.position));
  return { equity, held, closable, opensLeg: true };
}

/**
 * The order's quantity: the case's, or at the edge the largest lot multiple whose margin alone (no
 * fee) the equity carries (the case's when none is).
 */
function qtyOf(c: Case): Dec {
  if (!c.atEdge) return D(c.qty);
  const { equity, held, closable, opensLeg } = accountOf(c);
  if (!opensLeg) return D(c.qty);
  // a reversal may open up to equity (its margin replaces the closed one's); else what is left
  const room = closable.gt(0) ? (equity.lt(held) ? ZERO : equity) : equity.minus(held);
  const opening = floorToStep(room.mul(c.leverage).div(orderPrice(c)), LOT);
  return opening.gt(0) ? closable.plus(opening) : D(c.qty);
}

/**
 * What the venue must decide, computed by hand: 'reduces' for an order that only closes, else
 * whether the equity carries the margin the account needs with it and the taker fee of the
 * order's opening part. The position locks |q| x price / leverage. An order that opens on a flat
 * position or adds to it needs its own notional / leverage on top. A reversal (NET) leaves the
 * opposite position, whose margin replaces the closed one's: the account then needs the larger of
 * the two (an account whose positions already need more than its equity can only reduce). In BOTH
 * mode the legs are apart: a BUY on SHORT or a SELL on LONG only closes, a BUY LONG or a SELL
 * SHORT opens its leg in full.
 */
function expected(c: Case): 'reduces' | 'fits' | 'exceeds' {
  const { equity, held, closable, opensLeg } = accountOf(c);
  if (!opensLeg) return 'reduces';
  const price = orderPrice(c);
  const opening = qtyOf(c).minus(closable);
  if (!opening.gt(0)) return 'reduces';
  const opened = opening.mul(price).div(c.leverage);
  const margin = closable.gt(0) ? (held.gt(opened) ? held : opened) : held.plus(opened);
  return equity
    .minus(margin)
    .minus(feeOf(c, opening, price))
    .isNegative()
    ? 'exceeds'
    : 'fits';
}

/** Runs the case on a sim and says whether the order was refused for margin. */
function refusedForMargin(c: Case): boolean {
  const t = aSim({
    instruments: [
      anInstrument(BTC, {
        maxMarketSize: D('10000'),
        maxLimitSize: D('10000'),
        fees: {
          maker: ZERO,
          taker: D(c.fees.rate),
          markup: ZERO,
          fixedPerFill: ZERO,
          fixedPerOrder: D(c.fees.perOrder),
        },
      }),
    ],
    startingBalances: { USDT: D(BALANCE) },
    leverage: { [BTC]: D(c.leverage) },
    positionMode: c.mode,
  });
  const legOf = (qty: number): PositionSide => (c.mode === 'NET' ? 'NONE' : qty > 0 ? 'LONG' : 'SHORT');
  t.sim.onMarket(aQuote(0, c.entry, 100_000, c.entry, 100_000));
  if (c.position !== 0) {
    const side = c.position > 0 ? 'BUY' : 'SELL';
    t.send(aMarket('position', side, String(Math.abs(c.position)), { positionSide: legOf(c.position) }));
  }
  t.sim.onMarket(aQuote(1, c.price, 100_000, c.price, 100_000));
  const positionSide: PositionSide = c.mode === 'NET' ? 'NONE' : c.leg;
  const qty = qtyOf(c).toFixed();
  t.send(
    c.limitOffset === 0
      ? aMarket('o', c.side, qty, { positionSide })
      : aLimit('o', c.side, qty, String(orderPrice(c)), { positionSide }),
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
  it('never refuses an order that only reduces or that fits the equity (with the margin it frees, and its fee), and always refuses one that exceeds it', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(arbitraryCase, (c) => {
        const want = expected(c);
        seen.add(`${want}${c.atEdge ? ' at the edge' : ''}`);
        expect(refusedForMargin(c)).toBe(want === 'exceeds');
      }),
      { numRuns: 300 },
    );
    expect([...seen].sort()).toEqual([
      'exceeds',
      'exceeds at the edge',
      'fits',
      'fits at the edge',
      'reduces',
      'reduces at the edge',
    ]);
  });
});
