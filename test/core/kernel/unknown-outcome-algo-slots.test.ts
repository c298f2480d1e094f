import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import {
  COMMAND_OUTCOME_UNKNOWN,
  type Intent,
  VENUE_ORDER_NOT_FOUND,
  type VenueStatus,
} from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aRecordingKernelRig, type RecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

type Act = (ctx: StrategyContext<unknown, unknown>) => Intent | readonly Intent[] | undefined;
function scripted(acts: Readonly<Record<number, Act>>) {
  return defineStrategy({
    name: 'scripted',
    params: z.object({}),
    onQuote: (ctx, quote) => acts[quote.ts]?.(ctx),
  });
}

const STOP = (ctx: StrategyContext<unknown, unknown>): Intent =>
  ctx.order.algo({ sym: BTC, side: 'SELL', qty: 1, triggerPrice: 90, condition: 'LTE', price: 0 });
const BID: Act = (ctx) => ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 95 });

/** The algo order a-1's placement had no answer and its look-ups failed. */
function unknownOutcome(rig: RecordingKernelRig, ts: number): void {
  rig.port.emit({
    kind: 'commandRejected',
    ts,
    recvTs: ts,
    ref: 'a-1',
    intentKind: 'placeAlgoOrder',
    code: COMMAND_OUTCOME_UNKNOWN,
    message: 'timeout; look-ups failed',
  });
}

const riskDenials = (rig: RecordingKernelRig) =>
  rig.denials.filter((d) => !d.check.startsWith('venue.')).map((d) => `${d.intentKind} ${d.check}`);

describe('an algo order whose placement outcome was unknown, and maxOpenOrders', () => {
  it.each([
    [
      'a cancel-all of the strategy’s algo orders',
      ((ctx) => ctx.order.cancelAllAlgos({ sym: BTC })) as Act,
      429,
    ],
    ['a cancel of it', ((ctx) => ctx.order.cancelAlgo('a-1')) as Act, COMMAND_OUTCOME_UNKNOWN],
  ])(
    'keeps its slot after %s the venue refuses (code %s): the algo order may still be live',
    (_, cancel, code) => {
      const gate = new RiskGate({ limits: { maxOpenOrders: 1 } });
      const rig = aRecordingKernelRig(
        [{ id: 'a', strategy: scripted({ 5: STOP, 7: cancel, 3600000: BID }) }],
        {
          gate,
        },
      );
      rig.market.next(aQuote(5, 100));
      unknownOutcome(rig, 6);
      rig.market.next(aQuote(7, 100));
      const sent = rig.port.submitted.map((c) => c.intent).find((i) => i.kind.startsWith('cancel'));
      expect(sent).toBeDefined();
      rig.port.emit({
        kind: 'commandRejected',
        ts: 8,
        recvTs: 8,
        ref: sent?.ref ?? '',
        intentKind: sent?.kind ?? 'cancelAlgoOrder',
        code,
        message: 'refused',
      });
      rig.market.next(aQuote(3_600_000, 100));
      expect(riskDenials(rig)).toEqual(['placeOrder maxOpenOrders']);
    },
  );

  it('frees its slot when the venue refuses a cancel of it as not found: it holds no such algo order', () => {
    const gate = new RiskGate({ limits: { maxOpenOrders: 1 } });
    const rig = aRecordingKernelRig(
      [{ id: 'a', strategy: scripted({ 5: STOP, 7: (ctx) => ctx.order.cancelAlgo('a-1'), 3600000: BID }) }],
      { gate },
    );
    rig.market.next(aQuote(5, 100));
    unknownOutcome(rig, 6);
    rig.market.next(aQuote(7, 100));
    const cancel = rig.port.submitted.map((c) => c.intent).find((i) => i.kind === 'cancelAlgoOrder');
    rig.port.emit({
      kind: 'commandRejected',
      ts: 8,
      recvTs: 8,
      ref: cancel?.ref ?? '',
      intentKind: 'cancelAlgoOrder',
      code: VENUE_ORDER_NOT_FOUND,
      message: 'no algo order a-1',
    });
    rig.market.next(aQuote(3_600_000, 100));
    expect(riskDenials(rig)).toEqual([]);
  });

  it('frees its slot when a reconciliation of the venue’s orders does not list it', () => {
    const gate = new RiskGate({ limits: { maxOpenOrders: 1 } });
    const status = new Subject<VenueStatus>();
    const rig = aRecordingKernelRig([{ id: 'a', strategy: scripted({ 5: STOP, 3600000: BID }) }], {
      gate,
      venueStatus: status,
    });
    rig.market.next(aQuote(5, 100));
    unknownOutcome(rig, 6);
    status.next({ stream: 'private', state: 'down', ts: 10 });
    status.next({ stream: 'private', state: 'up', ts: 20 });
    // The reconciliation's events list no algo order: the venue holds none.
    status.next({ stream: 'private', state: 'reconciled', ts: 30 });
    rig.market.next(aQuote(3_600_000, 100));
    expect(riskDenials(rig)).toEqual([]);
  });

  it('keeps the slot of one still waiting for the venue’s answer through a reconciliation, and of an unknown one not cancelled', () => {
    const gate = new RiskGate({ limits: { maxOpenOrders: 1 } });
    const status = new Subject<VenueStatus>();
    const rig = aRecordingKernelRig([{ id: 'a', strategy: scripted({ 5: STOP, 100: BID, 3600000: BID }) }], {
      gate,
      venueStatus: status,
    });
    rig.market.next(aQuote(5, 100));
    status.next({ stream: 'private', state: 'down', ts: 10 });
    status.next({ stream: 'private', state: 'up', ts: 20 });
    status.next({ stream: 'private', state: 'reconciled', ts: 30 });
    rig.market.next(aQuote(100, 100));
    unknownOutcome(rig, 200);
    rig.market.next(aQuote(3_600_000, 100));
    expect(riskDenials(rig)).toEqual(['placeOrder maxOpenOrders', 'placeOrder maxOpenOrders']);
  });
});
