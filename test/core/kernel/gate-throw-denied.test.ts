import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { IntentGate } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC } from '../../kit/kernel-events.ts';

/** A strategy that places a limit BUY on every quote, built by `ctx.order` then changed by `change`. */
function aBuyer(change: (intent: object) => object = (intent) => intent) {
  return defineStrategy({
    name: 'buyer',
    params: z.object({}),
    onQuote: (ctx) => change(ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: 99 })) as never,
  });
}

describe('kernel: a check that throws denies the intent, the run goes on', () => {
  it("denies an intent whose number field is not a Decimal (fieldTypes), and the strategy's next intent goes out", () => {
    let first = true;
    const strategy = aBuyer((intent) => {
      if (!first) return intent;
      first = false;
      return { ...intent, qty: 5 };
    });
    const rig = aKernelRig([{ id: 's', strategy }], { gate: new RiskGate() });
    expect(() => rig.market.next(aQuote(1, 100))).not.toThrow();
    rig.market.next(aQuote(2, 100));
    expect(rig.denials.map((d) => `${d.ref} ${d.source} ${d.check}`)).toEqual(['s-1 risk fieldTypes']);
    expect(rig.denials[0]?.reason).toBe(
      'placeOrder s-1: qty must be a Decimal (got the number 5): build intents with ctx.order',
    );
    expect(rig.faults).toEqual([]);
    expect(rig.venue.submitted.map((c) => c.intent.ref)).toEqual(['s-2']);
  });

  it('turns a throw from the gate into a denial naming the error, for that intent only', () => {
    const real = new RiskGate();
    let calls = 0;
    const gate: IntentGate = {
      evaluate: (intent, view) => {
        if (++calls === 1) throw new TypeError('a check broke');
        return real.evaluate(intent, view);
      },
    };
    const rig = aKernelRig([{ id: 's', strategy: aBuyer() }], { gate });
    expect(() => rig.market.next(aQuote(1, 100))).not.toThrow();
    rig.market.next(aQuote(2, 100));
    expect(rig.denials).toHaveLength(1);
    expect(rig.denials[0]).toMatchObject({ ref: 's-1', source: 'kernel', check: 'kernel.checkThrew' });
    expect(rig.denials[0]?.reason).toBe(
      'placeOrder s-1 could not be checked (TypeError: a check broke); it was denied, nothing was sent',
    );
    expect(rig.faults).toEqual([]);
    expect(rig.venue.submitted.map((c) => c.intent.ref)).toEqual(['s-2']);
  });

  it('denies a trailing stop whose offset is a number as fieldTypes, before the emulator reads it', () => {
    const strategy = defineStrategy({
      name: 'trailer',
      params: z.object({}),
      onQuote: (ctx, quote) => {
        if (quote.ts !== 1) return undefined;
        const stop = ctx.order.trailingStop({ sym: BTC, side: 'SELL', qty: 0.1, offset: { bps: 20 } });
        return { ...stop, trailingStop: { ...stop.trailingStop, offset: 20 } } as never;
      },
    });
    const rig = aKernelRig([{ id: 's', strategy }], { gate: new RiskGate() });
    expect(() => rig.market.next(aQuote(1, 100))).not.toThrow();
    expect(rig.denials.map((d) => `${d.source} ${d.check}`)).toEqual(['risk fieldTypes']);
    expect(rig.denials[0]?.reason).toContain('trailingStop.offset must be a Decimal (got the number 20)');
  });
});
