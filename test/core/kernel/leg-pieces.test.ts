import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { legPieces } from '../../../core/kernel/index.ts';
import { D, type Dec, type PositionMode, type PositionSide, ZERO } from '../../../core/model/index.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';

function legsView(mode: PositionMode, long: number, short: number) {
  return {
    positionMode: () => mode,
    positionQty: (_sym: string, side: PositionSide): Dec =>
      side === 'LONG' ? D(long) : side === 'SHORT' ? D(-short) : ZERO,
  };
}

const qtyArb = fc.integer({ min: 0, max: 5000 }).map((n) => n / 1000);

describe('legPieces', () => {
  it('NET mode: one piece on NONE, never reduce-only', () => {
    expect(legPieces(legsView('NET', 0, 0), SYM, 'SELL', D('0.3'))).toEqual([
      { qty: D('0.3'), positionSide: 'NONE', reduceOnly: false },
    ]);
  });

  it('BOTH mode: a SELL closes the LONG leg held first, and opens SHORT only with the rest', () => {
    const pieces = legPieces(legsView('BOTH', 0.2, 0.1), SYM, 'SELL', D('0.5'));
    expect(pieces.map((p) => `${p.qty.toFixed()} ${p.positionSide} ${p.reduceOnly}`)).toEqual([
      '0.2 LONG true',
      '0.3 SHORT false',
    ]);
  });

  it('BOTH mode: the pieces add up to the trade, the closing one never exceeds the leg held', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('BUY' as const, 'SELL' as const),
        qtyArb,
        qtyArb,
        qtyArb,
        (side, qty, long, short) => {
          const pieces = legPieces(legsView('BOTH', long, short), SYM, side, D(qty));
          const total = pieces.reduce((sum, p) => sum.add(p.qty), ZERO);
          expect(total.toNumber()).toBe(qty);
          for (const p of pieces) expect(p.qty.gt(0)).toBe(true);
          const held = side === 'BUY' ? short : long;
          const closing = pieces.filter((p) => p.reduceOnly);
          expect(closing.every((p) => p.positionSide === (side === 'BUY' ? 'SHORT' : 'LONG'))).toBe(true);
          expect(closing.reduce((sum, p) => sum + p.qty.toNumber(), 0)).toBe(Math.min(qty, held));
          // nothing opens while the opposite leg is not closed completely
          if (qty <= held) expect(pieces.every((p) => p.reduceOnly)).toBe(true);
        },
      ),
    );
  });
});
