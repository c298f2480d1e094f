import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OrderTracker } from '../../../core/execution/index.ts';
import { defineStrategy, Kernel, virtualScheduler } from '../../../core/kernel/index.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';
import { aRecordingPort } from '../../kit/recording-execution-port.ts';

const flushPromises = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('kernel: in-flight requests the venue does not answer', () => {
  it('looks the order up by its reference after the ack timeout, never re-sends it, and tells the strategy', async () => {
    const seen: string[] = [];
    const strategy = defineStrategy({
      name: 'one-bid',
      params: z.object({}),
      onQuote: (ctx, quote) =>
        quote.ts === 1_000 ? ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: 90 }) : undefined,
      onOrder: (_ctx, order) => {
        seen.push(`${order.clientOrderId} ${order.orderState}`);
      },
    });
    const port = aRecordingPort();
    const market = new Subject<MarketEvent>();
    const kernel = new Kernel({
      instruments: [anInstrument(BTC)],
      market,
      execution: port,
      gate: new RiskGate(),
      scheduler: virtualScheduler(),
      strategies: [{ id: 's', strategy }],
      tracker: new OrderTracker({ ackTimeoutMs: 5_000 }),
      inFlightCheckMs: 1_000,
    });
    void kernel.start();
    market.next(aQuote(1_000, 100));
    market.next(aQuote(4_000, 100));
    await flushPromises();
    expect(port.lookups).toEqual([]);
    market.next(aQuote(7_000, 100));
    await flushPromises();
    expect(port.lookups).toEqual([`${BTC}|s-1`]);
    expect(port.submitted.map((c) => c.intent.ref)).toEqual(['s-1']);
    expect(seen).toEqual(['s-1 REJECTED']);
    expect(kernel.state.orderByRef('s-1')?.reason).toMatch(/never arrived/);
    expect(kernel.state.openOrders()).toEqual([]);
  });
});
