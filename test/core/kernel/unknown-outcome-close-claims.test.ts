import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { COMMAND_OUTCOME_UNKNOWN, D, type Intent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aPositionUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';

type Act = (ctx: StrategyContext<unknown, unknown>) => Intent | readonly Intent[] | undefined;
function scripted(acts: Readonly<Record<number, Act>>) {
  return defineStrategy({
    name: 'scripted',
    params: z.object({}),
    onQuote: (ctx, quote) => acts[quote.ts]?.(ctx),
  });
}

/**
 * Long 1 BTC; the strategy closes it at ts 5 and its reply is lost, the look-ups failing (outcome
 * unknown); then `between` runs, trading goes REDUCING, and an hour later the strategy sells 0.5
 * (plain), which only takes risk off.
 */
function closeWithUnknownOutcome(between: (rig: ReturnType<typeof aRecordingKernelRig>) => void) {
  const gate = new RiskGate();
  const rig = aRecordingKernelRig(
    [
      {
        id: 'a',
        strategy: scripted({
          5: (ctx) => ctx.order.closePosition(BTC),
          3600000: (ctx) => ctx.order.limit({ sym: BTC, side: 'SELL', qty: 0.5, price: 101 }),
        }),
      },
    ],
    { gate },
  );
  rig.port.emit(aPositionUpdate(1, '1'));
  rig.market.next(aQuote(5, 100));
  const close = rig.port.submitted.find((c) => c.intent.kind === 'closePosition');
  rig.port.emit({
    kind: 'commandRejected',
    ts: 6,
    recvTs: 6,
    ref: close?.intent.ref ?? '?',
    intentKind: 'closePosition',
    code: COMMAND_OUTCOME_UNKNOWN,
    message: 'timeout; look-ups failed',
  });
  between(rig);
  gate.reduceOnly('operator: reduce', undefined, 3_000_000);
  rig.market.next(aQuote(3_600_000, 100));
  return rig;
}

describe('a position close whose outcome was unknown', () => {
  it('does not keep claiming the position once the venue shows it still open (reconnect snapshot)', () => {
    const rig = closeWithUnknownOutcome((r) =>
      r.port.emit(aPositionUpdate(60_000, '1', { markPrice: D('99') })),
    );
    expect(
      rig.denials
        .filter((d) => !d.check.startsWith('venue.'))
        .map((d) => `${d.intentKind} ${d.check}: ${d.reason}`),
    ).toEqual([]);
  });
});

describe('the stale close claim, controls', () => {
  it('keeps claiming the position after the unknown outcome until the venue reports the leg', () => {
    const rig = closeWithUnknownOutcome(() => undefined);
    expect(rig.denials.map((d) => `${d.intentKind} ${d.check}`)).toEqual([
      'closePosition venue.-1',
      'placeOrder tradingState',
    ]);
  });

  it('passes the same plain SELL 0.5 in REDUCING when no close was ever sent', () => {
    const gate = new RiskGate();
    const rig = aRecordingKernelRig(
      [
        {
          id: 'a',
          strategy: scripted({
            3600000: (ctx) => ctx.order.limit({ sym: BTC, side: 'SELL', qty: 0.5, price: 101 }),
          }),
        },
      ],
      { gate },
    );
    rig.port.emit(aPositionUpdate(1, '1'));
    rig.market.next(aQuote(5, 100));
    gate.reduceOnly('operator: reduce', undefined, 3_000_000);
    rig.market.next(aQuote(3_600_000, 100));
    expect(rig.denials).toEqual([]);
    expect(rig.port.submitted.map((c) => c.intent.kind)).toEqual(['placeOrder']);
  });
});
