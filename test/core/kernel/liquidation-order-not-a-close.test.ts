import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { PositionMode, PositionSide } from '../../../core/model/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anAccountUpdate, aPositionUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { venueClose, venueLiquidation } from '../../kit/venue-fill-events.ts';

/** Closes its BTC leg on the first quote, and logs the orders and fills it is told of. */
function closer(log: string[], positionSide: PositionSide) {
  return defineStrategy({
    name: 'closer',
    params: z.object({}),
    onQuote: (ctx, quote) => (quote.ts === 1 ? ctx.order.closePosition(BTC, positionSide) : undefined),
    onOrder: (ctx, order) => {
      log.push(`${ctx.id} order ${order.clientOrderId} ${order.orderState}`);
    },
    onFill: (ctx, fill) => {
      log.push(`${ctx.id} fill ${fill.clientOrderId}`);
    },
  });
}

describe('kernel: a liquidation order is no strategy’s close', () => {
  for (const mode of ['NET', 'BOTH'] as const satisfies readonly PositionMode[])
    it(`leaves the venue's liquidation order of a leg being closed to nobody, the close's own order still the closer's (${mode})`, () => {
      const positionSide: PositionSide = mode === 'BOTH' ? 'LONG' : 'NONE';
      const log: string[] = [];
      const r = aRecordingKernelRig([{ id: 'alpha', strategy: closer(log, positionSide) }], {
        closeOrdering: 'sendOrder',
      });
      const account = anAccountUpdate(0, '100000');
      r.port.emit({ ...account, account: { ...account.account, positionMode: mode } });
      r.port.emit(aPositionUpdate(0, '10', { positionSide }));
      r.market.next(aQuote(1, 100));
      expect(r.port.submitted.map((c) => c.intent.kind)).toEqual(['closePosition']);
      // The venue liquidates half the leg before the close reaches it, which then closes the rest.
      const liquidation = `L1-${BTC}-${positionSide}`;
      for (const event of venueLiquidation('L1', liquidation, 'SELL', '5', '5', 2, { positionSide }))
        r.port.emit(event);
      for (const event of venueClose('SIM-C-1', 'SELL', '5', 3, { positionSide })) r.port.emit(event);
      const state = r.kernel.state;
      expect(state.ownerOf(liquidation)).toBeUndefined();
      expect(state.orders.closeRefOf(liquidation)).toBeUndefined();
      expect(state.ownerOf('SIM-C-1')).toBe('alpha');
      expect(log.filter((line) => line.includes(liquidation))).toEqual([]);
      expect(r.kernel.unattributedCloseOrders()).toEqual([]);
      expect(state.closes.idle).toBe(true);
    });
});
