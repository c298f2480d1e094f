import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { legPieces } from '../../../core/kernel/index.ts';
import {
  D,
  type Dec,
  type InstrumentSpec,
  type PositionMode,
  type PositionSide,
  ZERO,
} from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';

function legsView(mode: PositionMode, long: number, short: number, spec?: InstrumentSpec) {
  return {
    instrument: () => spec,
    positionMode: () => mode,
    positionQty: (_sym: string, side: PositionSide): Dec =>
      side === 'LONG' ? D(long) : side === 'SHORT' ? D(-short) : ZERO,
  };
}

const qtyArb = fc.integer({ min: 0, max: 5000 }).map((n) => n / 1000);

describe('legPieces', () => {
  it('BOTH mode: a closing piece whose notional is exactly minNotional is made (0.29 x 100 = 29, 28.999999999999996 on numbers)', () => {
    const spec = anInstrument(SYM, { minNotional: D('29'), lotSize: D('0.01'), minSize: D('0.01') });
    const pieces = legPieces(legsView('BOTH', 0, 0.29, spec), SYM, 'BUY', D('1.29'), 100);
    expect(pieces.map((p) => `${p.qty.toFixed()} ${p.positionSide} ${p.reduceOnly}`)).toEqual([
      '0.29 SHORT true',
      '1 LONG false',
    ]);
    const below = legPieces(legsView('BOTH', 0, 0.28, spec), SYM, 'BUY', D('1.28'), 100);
    expect(below.map((p) => `${p.qty.toFixed()} ${p.positionSide} ${p.reduceOnly}`)).toEqual([
      '1.28 LONG false',
    ]);
  });

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

  it('BOTH mode: a closing piece below the minimum gives way to the whole trade on the own leg, an opening one is left out', () => {
    const spec = anInstrument(SYM, { minSize: D('0.001'), lotSize: D('0.001'), minNotional: D(5) });
    const shown = (pieces: ReturnType<typeof legPieces>) =>
      pieces.map((p) => `${p.qty.toFixed()} ${p.positionSide} ${p.reduceOnly}`);
    // SHORT 0.003 held at ~1000 is 3 USDT: its close would be denied, so the BUY opens LONG whole
    expect(shown(legPieces(legsView('BOTH', 0, 0.003, spec), SYM, 'BUY', D('0.5'), 1000))).toEqual([
      '0.5 LONG false',
    ]);
    // SHORT 0.497 held: the close takes 0.497 and the 0.003 left (3 USDT) is not opened
    expect(shown(legPieces(legsView('BOTH', 0, 0.497, spec), SYM, 'BUY', D('0.5'), 1000))).toEqual([
      '0.497 SHORT true',
    ]);
    // without a price only the minimum size counts
    expect(shown(legPieces(legsView('BOTH', 0, 0.003, spec), SYM, 'BUY', D('0.5')))).toEqual([
      '0.003 SHORT true',
      '0.497 LONG false',
    ]);
  });
});
