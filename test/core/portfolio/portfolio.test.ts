import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, type Dec, decimalOf, ZERO } from '../../../core/model/index.ts';
import { Portfolio } from '../../../core/portfolio/index.ts';
import { aFill, arbitraryFill, decimalOnGrid } from '../../kit/fill-arbitraries.ts';
import { anInstrument, instrumentLookup } from '../../kit/instrument-builders.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ETH = 'OKX_PERP_ETH_USDT';
const SPOT = 'BINANCE_SPOT_SOL_USDT';
const lookup = instrumentLookup(
  anInstrument(BTC),
  anInstrument(ETH, { contractSize: D('0.01') }),
  anInstrument(SPOT),
);

function aPortfolio(cash = '10000'): Portfolio {
  return new Portfolio({ instrument: lookup, initialCash: { USDT: D(cash) } });
}

describe('portfolio', () => {
  it('realizes qty * contractSize * (exit - entry) on a long round trip and charges fees to cash', () => {
    const p = aPortfolio();
    p.applyFill(aFill({ sym: ETH, side: 'BUY', quantity: D('3'), price: D('2000'), fee: D('0.5') }));
    const realized = p.applyFill(
      aFill({ sym: ETH, side: 'SELL', quantity: D('3'), price: D('2100'), fee: D('0.25') }),
    );
    expect(realized.toFixed()).toBe('3'); // 3 contracts * 0.01 ETH * 100
    expect(p.position(ETH).qty.isZero()).toBe(true);
    expect(p.cash().toFixed()).toBe('10002.25');
    expect(p.fees().toFixed()).toBe('0.75');
    expect(p.realizedPnl().toFixed()).toBe('3');
  });

  it('realizes (entry - exit) on a short round trip', () => {
    const p = aPortfolio();
    p.applyFill(aFill({ side: 'SELL', quantity: D('2'), price: D('100') }));
    p.applyFill(aFill({ side: 'BUY', quantity: D('0.5'), price: D('90') }));
    expect(p.position(BTC).qty.toFixed()).toBe('-1.5');
    expect(p.position(BTC).avgPrice.toFixed()).toBe('100');
    p.applyFill(aFill({ side: 'BUY', quantity: D('1.5'), price: D('110') }));
    expect(p.realizedPnl().toFixed()).toBe('-10'); // 0.5 * 10 - 1.5 * 10
  });

  it('averages the entry price when a position grows', () => {
    const p = aPortfolio();
    p.applyFill(aFill({ side: 'BUY', quantity: D('1'), price: D('100') }));
    p.applyFill(aFill({ side: 'BUY', quantity: D('3'), price: D('120') }));
    expect(p.position(BTC).avgPrice.toFixed()).toBe('115');
  });

  it('flips through zero in NET mode: closes at the old average and opens the rest at the fill price', () => {
    const p = aPortfolio();
    p.applyFill(aFill({ side: 'BUY', quantity: D('1'), price: D('100') }));
    const realized = p.applyFill(aFill({ side: 'SELL', quantity: D('3'), price: D('120') }));
    expect(realized.toFixed()).toBe('20');
    expect(p.position(BTC).qty.toFixed()).toBe('-2');
    expect(p.position(BTC).avgPrice.toFixed()).toBe('120');
    p.mark(BTC, 110);
    expect(p.unrealizedPnl().toFixed()).toBe('20');
  });

  it('keeps LONG and SHORT legs apart in BOTH mode', () => {
    const p = aPortfolio();
    p.applyFill(aFill({ side: 'BUY', positionSide: 'LONG', quantity: D('1'), price: D('100') }));
    p.applyFill(aFill({ side: 'SELL', positionSide: 'SHORT', quantity: D('2'), price: D('101') }));
    expect(p.position(BTC, 'LONG').qty.toFixed()).toBe('1');
    expect(p.position(BTC, 'SHORT').qty.toFixed()).toBe('-2');
    expect(p.position(BTC, 'NONE').qty.isZero()).toBe(true);
    p.mark(BTC, 105);
    expect(p.position(BTC, 'LONG').unrealizedPnl.toFixed()).toBe('5');
    expect(p.position(BTC, 'SHORT').unrealizedPnl.toFixed()).toBe('-8');
    expect(p.equity().toFixed()).toBe('9997');
  });

  it('lists the syms held on any leg, so a caller marks only those', () => {
    const p = aPortfolio();
    p.applyFill(aFill({ side: 'BUY', positionSide: 'LONG', quantity: D('1'), price: D('100') }));
    p.applyFill(aFill({ side: 'SELL', positionSide: 'SHORT', quantity: D('1'), price: D('100') }));
    p.applyFill(aFill({ sym: ETH, side: 'BUY', quantity: D('1'), price: D('100') }));
    p.applyFill(aFill({ sym: ETH, side: 'SELL', quantity: D('1'), price: D('100') }));
    expect(p.heldSyms()).toEqual([BTC]);
  });

  it('books spot at cost so equity equals quote balance plus holdings at mark', () => {
    const p = aPortfolio('1000');
    p.applyFill(aFill({ sym: SPOT, side: 'BUY', quantity: D('4'), price: D('150') }));
    p.mark(SPOT, 160.5);
    // 1000 - 600 quote left + 4 SOL at 160.5 = 1042
    expect(p.equity().toFixed()).toBe('1042');
  });

  it('counts a sym that was never marked with zero unrealized PnL and at average price in exposure', () => {
    const p = aPortfolio();
    p.applyFill(aFill({ side: 'BUY', quantity: D('2'), price: D('100') }));
    expect(p.unrealizedPnl().isZero()).toBe(true);
    expect(p.grossExposure().toFixed()).toBe('200');
    p.mark(BTC, 90);
    expect(p.grossExposure().toFixed()).toBe('180');
    expect(p.unrealizedPnl().toFixed()).toBe('-20');
  });

  it('keeps equity = cash + unrealized PnL, and equal to the cash-flow view, after any fill sequence', () => {
    const marks = fc.record({
      [BTC]: fc.integer({ min: 500, max: 3000 }).map((n) => n / 10),
      [ETH]: fc.integer({ min: 500, max: 3000 }).map((n) => n / 10),
    });
    fc.assert(
      fc.property(
        fc.array(arbitraryFill([BTC, ETH], ['NONE', 'LONG', 'SHORT']), { maxLength: 40 }),
        marks,
        (fills, mk) => {
          const p = aPortfolio();
          let cashFlow = D('10000');
          const netQty = new Map<string, Dec>();
          for (const fill of fills) {
            p.applyFill(fill);
            const cs = lookup(fill.sym)?.contractSize ?? D(1);
            const signed = fill.side === 'BUY' ? fill.quantity : fill.quantity.neg();
            cashFlow = cashFlow.sub(signed.mul(cs).mul(fill.price)).sub(fill.fee);
            netQty.set(fill.sym, (netQty.get(fill.sym) ?? ZERO).add(signed.mul(cs)));
          }
          for (const [sym, price] of Object.entries(mk)) p.mark(sym, price);
          let holdings = ZERO;
          for (const [sym, qty] of netQty)
            holdings = holdings.add(qty.mul(decimalOf(mk[sym as keyof typeof mk])));
          expect(p.equity().eq(p.cash().add(p.unrealizedPnl()))).toBe(true);
          // A weighted average entry is a division, so partial closes may leave a 1e-30 residue.
          expect(p.equity().sub(cashFlow.add(holdings)).abs().lessThan('1e-25')).toBe(true);
        },
      ),
    );
  });

  it('realizes on a round trip exactly the hand-computed sum of qty * contractSize * (exit - entry)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ qty: decimalOnGrid('1', 1, 50), price: decimalOnGrid('0.1', 1000, 3000) }), {
          minLength: 1,
          maxLength: 10,
        }),
        decimalOnGrid('0.1', 1000, 3000),
        fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
        (entries, exit, openSide) => {
          const p = aPortfolio();
          let expected = ZERO;
          let total = ZERO;
          const direction = openSide === 'BUY' ? 1 : -1;
          for (const { qty, price } of entries) {
            p.applyFill(aFill({ sym: ETH, side: openSide, quantity: qty, price }));
            expected = expected.add(qty.mul('0.01').mul(exit.sub(price)).mul(direction));
            total = total.add(qty);
          }
          const closeSide = openSide === 'BUY' ? 'SELL' : 'BUY';
          p.applyFill(aFill({ sym: ETH, side: closeSide, quantity: total, price: exit }));
          expect(p.position(ETH).qty.isZero()).toBe(true);
          expect(p.realizedPnl().toFixed(20)).toBe(expected.toFixed(20));
        },
      ),
    );
  });

  it('tracks the signed net quantity through any flip in NET mode, re-entering at the fill price', () => {
    fc.assert(
      fc.property(fc.array(arbitraryFill([BTC]), { minLength: 1, maxLength: 30 }), (fills) => {
        const p = aPortfolio();
        let net = ZERO;
        for (const fill of fills) {
          const before = net;
          net = net.add(fill.side === 'BUY' ? fill.quantity : fill.quantity.neg());
          p.applyFill(fill);
          const pos = p.position(BTC);
          expect(pos.qty.eq(net)).toBe(true);
          const flipped = !before.isZero() && !net.isZero() && before.isNegative() !== net.isNegative();
          if (flipped || before.isZero()) expect(pos.avgPrice.eq(fill.price)).toBe(true);
          if (net.isZero()) expect(pos.avgPrice.isZero()).toBe(true);
        }
      }),
    );
  });
});
