import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, type StrategyContext } from '../../../core/kernel/index.ts';
import type { Intent, Order, OrderSide, PositionSide, UserEvent } from '../../../core/model/index.ts';
import { COMMAND_OUTCOME_UNKNOWN, D } from '../../../core/model/index.ts';
import { aRecordingKernelRig, type RecordingKernelRig } from '../../kit/kernel-builders.ts';
import {
  anAccountUpdate,
  anOrderUpdate,
  aPositionUpdate,
  aQuote,
  BTC,
  ETH,
} from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { filled, venueClose } from '../../kit/venue-fill-events.ts';

type Act = (ctx: StrategyContext<Record<string, never>, undefined>) => Intent[];

/** Sends what `acts` gives it on the quote of that time, and logs each order and fill it hears of. */
function scripted(log: string[], acts: Readonly<Record<number, Act>>) {
  return defineStrategy({
    name: 'scripted',
    params: z.object({}),
    onQuote: (ctx, quote) => acts[quote.ts]?.(ctx),
    onOrder: (ctx, order) => {
      log.push(`${ctx.id} order ${order.clientOrderId} ${order.orderState} closeRef ${order.closeRef}`);
    },
    onFill: (ctx, fill) => {
      log.push(`${ctx.id} fill ${fill.clientOrderId} closeRef ${fill.closeRef}`);
    },
  });
}

/** A market order of `qty` on BTC's `positionSide` leg (NET: NONE). */
function market(side: OrderSide, qty: string, positionSide: PositionSide = 'NONE', sym = BTC): Act {
  return (ctx) => [ctx.order.market({ sym, side, qty, positionSide })];
}

function emitAll(r: RecordingKernelRig, events: readonly UserEvent[]): void {
  for (const event of events) r.port.emit(event);
}

/** The reference of the strategies' command of that kind, as sent (the risk gate let it through). */
function sentRef(r: RecordingKernelRig, kind: Intent['kind']): string {
  const ref = r.port.submitted.find((c) => c.intent.kind === kind)?.intent.ref;
  if (ref === undefined) throw new Error(`no ${kind} sent; denied: ${r.denials.map((d) => d.reason)}`);
  return ref;
}

/**
 * A kernel whose one strategy, alpha, sends what `act` gives on the first quote (at 100), after the
 * venue reported `positions`; with the log of the orders and fills alpha hears of.
 */
function alphaSendingAtFirstQuote(
  act: Act,
  ...positions: UserEvent[]
): { r: RecordingKernelRig; log: string[] } {
  const log: string[] = [];
  const r = aRecordingKernelRig([{ id: 'alpha', strategy: scripted(log, { 1: act }) }]);
  for (const position of positions) r.port.emit(position);
  r.market.next(aQuote(1, 100));
  return { r, log };
}

describe('kernel: a position close sent while an opening order’s fill is on its way', () => {
  it('claims the close order when the position was flat as far as the kernel knew (opened, then closed)', () => {
    const { r, log } = alphaSendingAtFirstQuote((ctx) => [
      ...market('BUY', '5')(ctx),
      ctx.order.closePositions([BTC]),
    ]);
    const buy = sentRef(r, 'placeOrder');
    const close = sentRef(r, 'closePositions');
    emitAll(r, filled({ clientOrderId: buy, side: 'BUY' }, '5', '5', 2));
    emitAll(r, venueClose('paper-close-1', 'SELL', '5', 3));
    expect(r.kernel.state.ownerOf('paper-close-1')).toBe('alpha');
    expect(log.filter((line) => line.includes('paper-close-1'))).toEqual([
      `alpha order paper-close-1 NEW closeRef ${close}`,
      `alpha order paper-close-1 FILLED closeRef ${close}`,
      `alpha fill paper-close-1 closeRef ${close}`,
    ]);
  });

  it('passes a closePosition of the flat leg the same hook’s buy opens, claims its order, and denies one nothing could open', () => {
    const { r, log } = alphaSendingAtFirstQuote((ctx) => [
      ...market('BUY', '5')(ctx),
      ctx.order.closePosition(BTC),
      ctx.order.closePosition(ETH),
    ]);
    const close = sentRef(r, 'closePosition');
    expect(r.denials.map((d) => `${d.intentKind} ${d.check}`)).toEqual(['closePosition reduceOnly']);
    expect(r.denials[0]?.reason).toContain(`no ${ETH} position to close`);
    emitAll(r, filled({ clientOrderId: sentRef(r, 'placeOrder'), side: 'BUY' }, '5', '5', 2));
    emitAll(r, venueClose('paper-close-1', 'SELL', '5', 3));
    expect(r.kernel.state.ownerOf('paper-close-1')).toBe('alpha');
    expect(log).toContain(`alpha fill paper-close-1 closeRef ${close}`);
  });

  it('claims the close order when the leg grew before the close reached the venue (NET, added to)', () => {
    const { r, log } = alphaSendingAtFirstQuote(
      (ctx) => [...market('BUY', '5')(ctx), ctx.order.closePosition(BTC)],
      aPositionUpdate(0, '10'),
    );
    emitAll(r, filled({ clientOrderId: sentRef(r, 'placeOrder'), side: 'BUY' }, '5', '15', 2));
    emitAll(r, venueClose('paper-close-1', 'SELL', '15', 3));
    expect(r.kernel.state.ownerOf('paper-close-1')).toBe('alpha');
    expect(log).toContain(`alpha fill paper-close-1 closeRef ${sentRef(r, 'closePosition')}`);
  });

  it('claims it through partial fills of the opening order, before and after the close', () => {
    const { r, log } = alphaSendingAtFirstQuote(
      (ctx) => [
        ctx.order.limit({ sym: BTC, side: 'BUY', qty: '5', price: 100 }),
        ctx.order.closePosition(BTC),
      ],
      aPositionUpdate(0, '10'),
    );
    const buy = sentRef(r, 'placeOrder');
    // 2 of the 5 fill, then 1 more: the leg is reported at 12, then 13.
    const piece = { clientOrderId: buy, side: 'BUY', orderId: 'v-buy', orderType: 'LIMIT' } as const;
    const partly = (executed: number): Partial<Order> => ({
      orderQty: D(5),
      orderState: 'PARTIALLY_FILLED',
      executedQty: D(executed),
    });
    emitAll(r, filled(piece, '2', '12', 2, partly(2)));
    emitAll(r, filled(piece, '1', '13', 3, partly(3)));
    emitAll(r, venueClose('paper-close-1', 'SELL', '13', 4));
    emitAll(r, filled(piece, '2', '2', 5, { orderQty: D(5), executedQty: D(5) }));
    expect(r.kernel.state.ownerOf('paper-close-1')).toBe('alpha');
    expect(log).toContain(`alpha fill paper-close-1 closeRef ${sentRef(r, 'closePosition')}`);
  });

  it('claims it when the leg flipped before the close reached the venue (NET: the close buys back)', () => {
    const { r } = alphaSendingAtFirstQuote(
      (ctx) => [...market('SELL', '15')(ctx), ctx.order.closePosition(BTC)],
      aPositionUpdate(0, '10'),
    );
    emitAll(r, filled({ clientOrderId: sentRef(r, 'placeOrder'), side: 'SELL' }, '15', '-5', 2));
    emitAll(r, venueClose('paper-close-1', 'BUY', '5', 3));
    expect(r.kernel.state.ownerOf('paper-close-1')).toBe('alpha');
  });

  it('claims it when the venue reported the grown leg before pushing the opening fill', () => {
    const { r } = alphaSendingAtFirstQuote(
      (ctx) => [...market('BUY', '5')(ctx), ctx.order.closePosition(BTC)],
      aPositionUpdate(0, '10'),
    );
    const [update, fill, position] = filled(
      { clientOrderId: sentRef(r, 'placeOrder'), side: 'BUY' },
      '5',
      '15',
      2,
    );
    emitAll(r, [update, position, fill] as UserEvent[]);
    emitAll(r, venueClose('paper-close-1', 'SELL', '15', 3));
    expect(r.kernel.state.ownerOf('paper-close-1')).toBe('alpha');
  });

  it('claims it when a reducing order’s fill came first (a report of the size that fill leaves)', () => {
    const { r } = alphaSendingAtFirstQuote(
      (ctx) => [...market('SELL', '3')(ctx), ctx.order.closePosition(BTC)],
      aPositionUpdate(0, '10'),
    );
    emitAll(r, filled({ clientOrderId: sentRef(r, 'placeOrder'), side: 'SELL' }, '3', '7', 2));
    emitAll(r, venueClose('paper-close-1', 'SELL', '7', 3));
    expect(r.kernel.state.ownerOf('paper-close-1')).toBe('alpha');
  });

  it('claims a hedge leg’s close (BOTH mode, not flagged reduce-only) after its leg grew', () => {
    const log: string[] = [];
    const r = aRecordingKernelRig([
      {
        id: 'alpha',
        strategy: scripted(log, {
          1: (ctx) => [...market('BUY', '1', 'LONG')(ctx), ctx.order.closePosition(BTC, 'LONG')],
        }),
      },
    ]);
    r.port.emit({
      ...anAccountUpdate(0, '100000'),
      account: { ...anAccountUpdate(0, '100000').account, positionMode: 'BOTH' },
    });
    r.port.emit(aPositionUpdate(0, '2', { positionSide: 'LONG' }));
    r.port.emit(aPositionUpdate(0, '-3', { positionSide: 'SHORT' }));
    r.market.next(aQuote(1, 100));
    emitAll(
      r,
      filled({ clientOrderId: sentRef(r, 'placeOrder'), side: 'BUY', positionSide: 'LONG' }, '1', '3', 2),
    );
    emitAll(r, venueClose('paper-close-1', 'SELL', '3', 3, { positionSide: 'LONG', reduceOnly: false }));
    expect(r.kernel.state.ownerOf('paper-close-1')).toBe('alpha');
  });

  it('gives it to the closer when another strategy’s opening fill grew the shared NET position', () => {
    const log: string[] = [];
    const r = aRecordingKernelRig([
      { id: 'alpha', strategy: scripted(log, { 1: (ctx) => [ctx.order.closePosition(BTC)] }) },
      { id: 'beta', strategy: scripted(log, { 1: market('BUY', '5') }) },
    ]);
    r.port.emit(aPositionUpdate(0, '10'));
    r.market.next(aQuote(1, 100));
    emitAll(r, filled({ clientOrderId: sentRef(r, 'placeOrder'), side: 'BUY' }, '5', '15', 2));
    emitAll(r, venueClose('paper-close-1', 'SELL', '15', 3));
    expect(r.kernel.state.ownerOf('paper-close-1')).toBe('alpha');
    expect(log.filter((line) => line.includes('paper-close-1')).every((l) => l.startsWith('alpha'))).toBe(
      true,
    );
  });
});

describe('kernel: what a close sent with an opening order in flight does not claim', () => {
  it('nothing after the leg shrank before the close order came (its effect, or another order’s)', () => {
    const log: string[] = [];
    const r = aRecordingKernelRig([
      {
        id: 'alpha',
        strategy: scripted(log, { 1: (ctx) => [...market('BUY', '5')(ctx), ctx.order.closePosition(BTC)] }),
      },
    ]);
    r.port.emit(aPositionUpdate(0, '10'));
    r.market.next(aQuote(1, 100));
    emitAll(r, filled({ clientOrderId: sentRef(r, 'placeOrder'), side: 'BUY' }, '5', '15', 2));
    r.port.emit(aPositionUpdate(3, '7'));
    emitAll(r, venueClose('paper-close-1', 'SELL', '7', 4));
    expect(r.kernel.state.ownerOf('paper-close-1')).toBeUndefined();
  });

  it('nothing after a fill of an order not seen yet shrank the leg (it may be the close’s own)', () => {
    const log: string[] = [];
    const r = aRecordingKernelRig([
      { id: 'alpha', strategy: scripted(log, { 1: (ctx) => [ctx.order.closePosition(BTC)] }) },
    ]);
    r.port.emit(aPositionUpdate(0, '10'));
    r.market.next(aQuote(1, 100));
    const [, fill, position] = filled(
      { clientOrderId: 'unseen', side: 'SELL', reduceOnly: true },
      '10',
      '0',
      2,
    );
    emitAll(r, [fill as UserEvent, position as UserEvent]);
    emitAll(r, venueClose('by-hand', 'SELL', '10', 3));
    expect(r.kernel.state.ownerOf('by-hand')).toBeUndefined();
  });

  it('nothing once the leg was reported flat as a known fill left it and no order can open it (the close finds nothing)', () => {
    const log: string[] = [];
    const r = aRecordingKernelRig([
      {
        id: 'alpha',
        strategy: scripted(log, { 1: (ctx) => [...market('SELL', '10')(ctx), ctx.order.closePosition(BTC)] }),
      },
      { id: 'beta', strategy: scripted(log, { 4: market('BUY', '5') }) },
    ]);
    r.port.emit(aPositionUpdate(0, '10'));
    r.market.next(aQuote(1, 100));
    emitAll(r, filled({ clientOrderId: sentRef(r, 'placeOrder'), side: 'SELL' }, '10', '0', 2));
    // The close's refusal (nothing to close) is lost with its reply; the venue shows it flat, so
    // the look-ups report no failure. beta opens the leg again and someone reduces it by hand.
    r.market.next(aQuote(4, 100));
    const buy = r.port.submitted.filter((c) => c.intent.kind === 'placeOrder')[1]?.intent.ref ?? '';
    emitAll(r, filled({ clientOrderId: buy, side: 'BUY' }, '5', '5', 5));
    emitAll(r, venueClose('by-hand', 'SELL', '5', 6));
    expect(r.kernel.state.ownerOf('by-hand')).toBeUndefined();
  });

  it('no later order on a flat leg once the close was processed elsewhere (closePositions of two syms)', () => {
    const log: string[] = [];
    const r = aRecordingKernelRig([
      {
        id: 'alpha',
        strategy: scripted(log, {
          1: (ctx) => [
            ctx.order.limit({ sym: BTC, side: 'BUY', qty: '5', price: 90 }),
            ctx.order.closePositions([BTC, ETH]),
          ],
        }),
      },
    ]);
    r.port.emit(aPositionUpdate(0, '2', { sym: ETH }));
    r.market.next(aQuote(1, 100));
    // The close reaches the venue before the BTC buy fills: it closes ETH only.
    emitAll(r, venueClose('paper-close-1', 'SELL', '2', 2, { sym: ETH }));
    expect(r.kernel.state.ownerOf('paper-close-1')).toBe('alpha');
    emitAll(r, filled({ clientOrderId: sentRef(r, 'placeOrder'), side: 'BUY' }, '5', '5', 3));
    emitAll(r, venueClose('by-hand', 'SELL', '5', 4));
    expect(r.kernel.state.ownerOf('by-hand')).toBeUndefined();
  });

  it('no order on a flat leg no order of the run could open', () => {
    const log: string[] = [];
    const r = aRecordingKernelRig([
      { id: 'alpha', strategy: scripted(log, { 1: (ctx) => [ctx.order.closePositions([BTC, ETH])] }) },
    ]);
    r.port.emit(aPositionUpdate(0, '2', { sym: ETH }));
    r.market.next(aQuote(1, 100));
    r.port.emit(aPositionUpdate(2, '5'));
    emitAll(r, venueClose('by-hand', 'SELL', '5', 3));
    expect(r.kernel.state.ownerOf('by-hand')).toBeUndefined();
  });

  it('no order on a leg flat when sent once the close’s outcome is unknown, even before any report of it', () => {
    const { r } = alphaSendingAtFirstQuote((ctx) => [
      ...market('BUY', '5')(ctx),
      ctx.order.closePositions([BTC]),
    ]);
    r.port.emit({
      kind: 'commandRejected',
      ts: 2,
      recvTs: 2,
      ref: sentRef(r, 'closePositions'),
      intentKind: 'closePositions',
      code: COMMAND_OUTCOME_UNKNOWN,
      message: 'no reply',
    });
    // The buy's update and fill, the leg's report not yet.
    emitAll(r, filled({ clientOrderId: sentRef(r, 'placeOrder'), side: 'BUY' }, '5', '5', 3).slice(0, 2));
    r.port.emit(
      anOrderUpdate(anOrder({ clientOrderId: 'by-hand', side: 'SELL', reduceOnly: true, updateAt: 4 })),
    );
    expect(r.kernel.state.ownerOf('by-hand')).toBeUndefined();
  });
});
