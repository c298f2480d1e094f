import { describe, expect, it } from 'vitest';
import type { UserEvent } from '../../../../core/model/index.ts';
import { D } from '../../../../core/model/index.ts';
import { reconciliationReport } from '../../../../core/venue/live/reconciliation-report.ts';
import { aPositionUpdate } from '../../../kit/kernel-events.ts';
import { anOrder } from '../../../kit/order-builders.ts';

const order = (clientOrderId: string, overrides = {}): UserEvent => ({
  kind: 'order',
  ts: 1,
  recvTs: 1,
  order: anOrder({ clientOrderId, orderId: `o-${clientOrderId}`, ...overrides }),
});

describe('the report of what a reconciliation corrected', () => {
  it('names the orders adopted and changed, the positions before and after, and what is still looked up', () => {
    const before = {
      openOrders: [
        anOrder({ clientOrderId: 'filled', orderId: 'o-filled', orderState: 'OPEN' }),
        anOrder({ clientOrderId: 'forgotten', orderId: 'o-forgotten', orderState: 'OPEN' }),
        anOrder({ clientOrderId: 'same', orderId: 'o-same', orderState: 'OPEN' }),
      ],
      positions: [aPositionUpdate(1, '0.02').position],
      assets: [],
    };
    const corrections: UserEvent[] = [
      order('mm-abc-1', { orderState: 'NEW' }),
      order('filled', { orderState: 'FILLED', executedQty: D('1') }),
      order('forgotten', { orderState: 'CANCELLED', synthesized: true, reason: 'the venue forgot it' }),
      order('same', { orderState: 'OPEN' }),
      aPositionUpdate(2, '0'),
      { kind: 'account', ts: 2, recvTs: 2, account: {} as never },
    ];
    expect(reconciliationReport(corrections, before, ['lost-1'])).toEqual({
      corrected: { order: 4, position: 1, account: 1 },
      adopted: ['mm-abc-1 NEW'],
      orders: ['filled OPEN -> FILLED (executed 1)', 'forgotten OPEN -> CANCELLED: the venue forgot it'],
      positions: ['BINANCE_PERP_BTC_USDT NONE 0.02 -> 0'],
      lookingUp: ['lost-1'],
    });
  });

  it('says only the counts when nothing was named, and names at most 20 of a kind', () => {
    const empty = { openOrders: [], positions: [], assets: [] };
    expect(reconciliationReport([], empty, [])).toEqual({ corrected: {} });
    const many = Array.from({ length: 23 }, (_, i) => order(`a-${i}`, { orderState: 'NEW' }));
    const { adopted } = reconciliationReport(many, empty, []);
    expect(adopted).toHaveLength(21);
    expect(adopted?.at(-1)).toBe('and 3 more');
  });
});
