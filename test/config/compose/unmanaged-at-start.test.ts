import { describe, expect, it } from 'vitest';
import { unmanagedAtStartWarnings } from '../../../config/compose/unmanaged-at-start.ts';
import type { Order, Position } from '../../../core/model/index.ts';
import { aPositionUpdate } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ETH = 'BINANCE_PERP_ETH_USDT';

function stateWith(orders: Order[], positions: Position[], owned: Record<string, string> = {}) {
  return {
    openOrders: () => orders,
    ownerOf: (ref: string) => owned[ref],
    positions: new Map(positions.map((p) => [`${p.sym}|${p.positionSide}`, p])),
  };
}

describe('what a restarted session finds that its config no longer manages', () => {
  it('names open orders of a strategy id the config does not run, and positions on syms it does not list', () => {
    const state = stateWith(
      [
        anOrder({ clientOrderId: 'old_mm-tk3x9a4f-1' }),
        anOrder({ clientOrderId: 'old_mm-tk3x9a4f-2' }),
        anOrder({ clientOrderId: 'old_mm-tk3x9a4f-5-tp' }),
        anOrder({ clientOrderId: 'mm-tk3x9a4f-3' }),
        anOrder({ clientOrderId: 'by-hand-order' }),
        anOrder({ clientOrderId: '' }),
      ],
      [
        aPositionUpdate(1, '0.5', { sym: ETH }).position,
        aPositionUpdate(1, '1').position,
        aPositionUpdate(1, '0', { sym: 'BINANCE_PERP_SOL_USDT' }).position,
      ],
      { 'mm-tk3x9a4f-3': 'mm' },
    );
    expect(unmanagedAtStartWarnings(state, ['mm'], new Set([BTC]))).toEqual([
      '3 open order(s) on the venue carry the references of strategy "old_mm", which this config does not run: no strategy manages them (they stay working until cancelled)',
      `positions on syms not in instruments: ${ETH} 0.5; the session gets no market data for them, so equity and the kill switch value them at their last known price only`,
    ]);
  });

  it('says nothing when everything found is managed', () => {
    const state = stateWith(
      [anOrder({ clientOrderId: 'mm-tk3x9a4f-3' })],
      [aPositionUpdate(1, '1').position],
      {
        'mm-tk3x9a4f-3': 'mm',
      },
    );
    expect(unmanagedAtStartWarnings(state, ['mm'], new Set([BTC]))).toEqual([]);
  });
});
