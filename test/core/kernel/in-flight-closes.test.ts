import { describe, expect, it } from 'vitest';
import { InFlightCloses } from '../../../core/kernel/in-flight-closes.ts';
import type { Order, PositionSide } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

/** A BOTH-mode book holding 2 BTC long and 3 BTC short. */
function hedged(): InFlightCloses {
  const legs: Partial<Record<PositionSide, number>> = { LONG: 2, SHORT: -3 };
  return new InFlightCloses((sym, side) => D(sym === BTC ? (legs[side] ?? 0) : 0));
}

/** A venue's market close of a BOTH-mode leg, not flagged reduce-only. */
function legClose(positionSide: 'LONG' | 'SHORT', overrides: Partial<Order> = {}): Order {
  return anOrder({
    clientOrderId: `venue-${positionSide}`,
    side: positionSide === 'LONG' ? 'SELL' : 'BUY',
    orderType: 'MARKET',
    reduceOnly: false,
    positionSide,
    ...overrides,
  });
}

describe('the position closes in flight', () => {
  it('gives a close of every leg of a sym one order per open leg, in BOTH mode by the side that closes it', () => {
    const closes = hedged();
    closes.sending({ kind: 'closePositions', ref: 'a-r-1', symList: [BTC] }, 'alpha');
    expect(closes.claim(legClose('LONG', { side: 'BUY' }))).toBeUndefined();
    expect(closes.claim(legClose('LONG'))).toEqual({ kind: 'owner', owner: 'alpha', ref: 'a-r-1' });
    expect(closes.claim(legClose('LONG'))).toBeUndefined();
    expect(closes.claim(legClose('SHORT'))).toEqual({ kind: 'owner', owner: 'alpha', ref: 'a-r-1' });
    expect(closes.idle).toBe(true);
  });

  it('reaches only the leg a close names, and no leg the kernel holds flat', () => {
    const closes = hedged();
    closes.sending({ kind: 'closePosition', ref: 'a-r-1', sym: BTC, positionSide: 'SHORT' }, 'alpha');
    closes.sending({ kind: 'closePosition', ref: 'a-r-2', sym: 'ETH', positionSide: 'NONE' }, 'alpha');
    expect(closes.claim(legClose('LONG'))).toBeUndefined();
    expect(closes.claim(legClose('SHORT'))).toEqual({ kind: 'owner', owner: 'alpha', ref: 'a-r-1' });
    expect(closes.idle).toBe(true);
  });

  it('tells an order two strategies’ closes of one leg may have made as theirs jointly, and ends both', () => {
    const closes = hedged();
    closes.sending({ kind: 'closePosition', ref: 'a-r-1', sym: BTC, positionSide: 'LONG' }, 'alpha');
    closes.sending({ kind: 'closePosition', ref: 'b-r-1', sym: BTC, positionSide: 'LONG' }, 'beta');
    expect(closes.claim(legClose('LONG'))).toEqual({ kind: 'ambiguous', owners: ['alpha', 'beta'] });
    expect(closes.claim(legClose('LONG'))).toBeUndefined();
  });
});

describe('what the closes in flight claim of a position', () => {
  it('is each leg’s signed size when its close was sent, per owner, until the close order is seen', () => {
    const closes = hedged();
    expect(closes.closingQty(BTC, 'LONG').toFixed()).toBe('0');
    closes.sending({ kind: 'closePositions', ref: 'a-r-1', symList: [BTC] }, 'alpha');
    expect(closes.closingQty(BTC, 'LONG').toFixed()).toBe('2');
    expect(closes.closingQty(BTC, 'SHORT').toFixed()).toBe('-3');
    expect(closes.closingQty(BTC, 'SHORT', 'beta').toFixed()).toBe('0');
    closes.seen('a-r-1', legClose('LONG'));
    expect(closes.closingQty(BTC, 'LONG').toFixed()).toBe('0');
    expect(closes.closingQty(BTC, 'SHORT', 'alpha').toFixed()).toBe('-3');
  });
});
