import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D, type Execution } from '../../../core/model/index.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { aKernelRig, aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aPositionUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

/** A strategy that buys 1 BTC at its first quote and notes what it sees in each hook. */
function aBuyer(seen: string[]) {
  return defineStrategy({
    name: 'buyer',
    params: z.object({}),
    state: () => ({ sent: false }),
    onQuote: (ctx) => {
      seen.push(`onQuote net=${ctx.netQty(BTC)} open=${ctx.openOrders().length}`);
      if (ctx.state.sent) return;
      ctx.state.sent = true;
      return ctx.order.market({ sym: BTC, side: 'BUY', qty: 1, ref: 'b-1' });
    },
    onOrder: (ctx, order) => {
      seen.push(`onOrder ${order.orderState} net=${ctx.netQty(BTC)} open=${ctx.openOrders().length}`);
    },
    onPosition: (ctx, position) => {
      seen.push(`onPosition ${position.positionQty} net=${ctx.netQty(BTC)}`);
    },
  });
}

/** The venue's fill of `b-1` at `ts`. */
function fillOf(
  ts: number,
  quantity: string,
  fields: Partial<Omit<Execution, 'quantity' | 'price' | 'fee' | 'rebate'>> = {},
): Execution {
  return anExecution({ side: 'BUY', quantity, price: '100', timestamp: ts, clientOrderId: 'b-1', ...fields });
}

function aBoughtRig(seen: string[]) {
  const rig = aRecordingKernelRig([{ id: 's', strategy: aBuyer(seen) }]);
  rig.market.next(aQuote(1_000, 100));
  rig.port.emit(
    anOrderUpdate(anOrder({ clientOrderId: 'b-1', orderId: 'o-1', orderType: 'MARKET', orderState: 'NEW' })),
  );
  return rig;
}

const filled = (ts: number) =>
  anOrderUpdate(
    anOrder({
      clientOrderId: 'b-1',
      orderId: 'o-1',
      orderType: 'MARKET',
      orderState: 'FILLED',
      executedQty: D(1),
      updateAt: ts,
    }),
  );

describe('kernel: a fill counts in netQty before the venue reports the position', () => {
  it('shows the fill in netQty when the order is FILLED, before the position update arrives', () => {
    const seen: string[] = [];
    const rig = aBoughtRig(seen);
    rig.port.emit({ kind: 'execution', ts: 1_010, recvTs: 1_010, execution: fillOf(1_010, '1') });
    rig.port.emit(filled(1_010));
    rig.market.next(aQuote(1_012, 100));
    rig.port.emit(aPositionUpdate(1_010, '1'));
    expect(seen.slice(1)).toEqual([
      'onOrder NEW net=0 open=1',
      'onOrder FILLED net=1 open=0',
      'onQuote net=1 open=0',
      'onPosition 1 net=1',
    ]);
  });

  it('never counts a fill twice: the position update replaces what it includes', () => {
    const seen: string[] = [];
    const rig = aBoughtRig(seen);
    rig.port.emit({ kind: 'execution', ts: 1_010, recvTs: 1_010, execution: fillOf(1_010, '0.4') });
    rig.port.emit(aPositionUpdate(1_010, '0.4'));
    rig.port.emit({ kind: 'execution', ts: 1_020, recvTs: 1_020, execution: fillOf(1_020, '0.6') });
    expect(rig.kernel.state.positionQty(BTC, 'NONE').toString()).toBe('1');
    rig.port.emit(aPositionUpdate(1_020, '1'));
    expect(rig.kernel.state.positionQty(BTC, 'NONE').toString()).toBe('1');
  });

  it('does not add a fill the venue reported in a position update already (position first)', () => {
    const seen: string[] = [];
    const rig = aBoughtRig(seen);
    rig.port.emit(aPositionUpdate(1_010, '1'));
    rig.port.emit({ kind: 'execution', ts: 1_010, recvTs: 1_010, execution: fillOf(1_010, '1') });
    expect(rig.kernel.state.positionQty(BTC, 'NONE').toString()).toBe('1');
  });

  it('counts a SHORT leg fill of a hedge-mode account on that leg, signed', () => {
    const seen: string[] = [];
    const rig = aBoughtRig(seen);
    rig.port.emit({
      kind: 'execution',
      ts: 1_010,
      recvTs: 1_010,
      execution: fillOf(1_010, '2', { side: 'SELL', positionSide: 'SHORT', clientOrderId: 'x' }),
    });
    expect(rig.kernel.state.positionQty(BTC, 'SHORT').toString()).toBe('-2');
    expect(rig.kernel.state.positionQty(BTC, 'LONG').toString()).toBe('0');
    rig.port.emit(aPositionUpdate(1_010, '2', { positionSide: 'SHORT' }));
    expect(rig.kernel.state.positionQty(BTC, 'SHORT').toString()).toBe('-2');
  });
});

describe("kernel: a position report older than its leg's latest changes nothing", () => {
  it('keeps the newer position when an older report of the leg arrives after it (pushes out of order)', () => {
    const rig = aBoughtRig([]);
    rig.port.emit({ kind: 'execution', ts: 1_010, recvTs: 1_010, execution: fillOf(1_010, '0.4') });
    rig.port.emit({ kind: 'execution', ts: 1_020, recvTs: 1_020, execution: fillOf(1_020, '0.6') });
    rig.port.emit(filled(1_020));
    rig.port.emit(aPositionUpdate(1_020, '1'));
    rig.port.emit(aPositionUpdate(1_010, '0.4'));
    expect(rig.kernel.state.positionQty(BTC, 'NONE').toString()).toBe('1');
  });

  it('tells the strategy nothing of a stale position report, which changed nothing', () => {
    const seen: string[] = [];
    const rig = aBoughtRig(seen);
    rig.port.emit(aPositionUpdate(1_020, '1'));
    rig.port.emit(aPositionUpdate(1_010, '0.4'));
    expect(seen.filter((line) => line.startsWith('onPosition'))).toEqual(['onPosition 1 net=1']);
  });

  it('forgets only the fills a report includes: a fill later than the report still counts', () => {
    const rig = aBoughtRig([]);
    rig.port.emit({ kind: 'execution', ts: 1_010, recvTs: 1_010, execution: fillOf(1_010, '0.4') });
    rig.port.emit({ kind: 'execution', ts: 1_020, recvTs: 1_020, execution: fillOf(1_020, '0.6') });
    rig.port.emit(aPositionUpdate(1_010, '0.4'));
    expect(rig.kernel.state.positionQty(BTC, 'NONE').toString()).toBe('1');
    rig.port.emit(aPositionUpdate(1_020, '1'));
    expect(rig.kernel.state.positionQty(BTC, 'NONE').toString()).toBe('1');
  });

  it("lets a report of the same time replace the one before, as the venue's latest word", () => {
    const rig = aBoughtRig([]);
    rig.port.emit(aPositionUpdate(1_020, '1'));
    rig.port.emit(aPositionUpdate(1_020, '0.5'));
    expect(rig.kernel.state.positionQty(BTC, 'NONE').toString()).toBe('0.5');
  });

  it('property: with reports sent before or after the fills they include, netQty is always the position the venue knows of', () => {
    const fill = fc.record({
      // 0: stamped in the same millisecond as the fill before (one order's pieces)
      dt: fc.integer({ min: 0, max: 2 }),
      qty: fc.integer({ min: -5, max: 5 }).filter((q) => q !== 0),
      // the venue reports the leg after this fill: none, after its execution, or before it
      report: fc.constantFrom('none', 'after', 'before'),
      // an older report is delivered again (a snapshot read before a push): it changes nothing
      stale: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(fill, { maxLength: 12 }), (fills) => {
        const { kernel } = aKernelRig([]);
        const reports: { ts: number; qty: number }[] = [];
        let ts = 1;
        let position = 0;
        const execution = (qty: number, at: number) =>
          kernel.push({
            kind: 'execution',
            ts: at,
            recvTs: at,
            execution: anExecution({
              side: qty < 0 ? 'SELL' : 'BUY',
              quantity: String(Math.abs(qty)),
              price: '100',
              timestamp: at,
            }),
          });
        const report = (at: number, qty: number) => {
          reports.push({ ts: at, qty });
          kernel.push(aPositionUpdate(at, String(qty)));
        };
        for (const f of fills) {
          ts += f.dt;
          position += f.qty;
          if (f.report === 'before') report(ts, position);
          execution(f.qty, ts);
          if (f.report === 'after') report(ts, position);
          const older = reports.find((r) => r.ts < (reports.at(-1)?.ts ?? 0));
          if (f.stale && older !== undefined) kernel.push(aPositionUpdate(older.ts, String(older.qty)));
          expect(kernel.state.positionQty(BTC, 'NONE').toString()).toBe(String(position));
        }
      }),
    );
  });
});
