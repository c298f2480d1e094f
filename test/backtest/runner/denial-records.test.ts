import { describe, expect, it } from 'vitest';
import { denialRecordOf } from '../../../backtest/runner/index.ts';
import type { IntentDenied } from '../../../core/kernel/index.ts';
import { BTC } from '../../kit/kernel-events.ts';

const refusal: IntentDenied = {
  kind: 'denied',
  strategyId: 's',
  ref: 's-3',
  intentKind: 'closePosition',
  source: 'venue',
  check: 'venue.401023',
  reason: 'the venue refused closePosition s-3',
  ts: 5,
};

describe('a denial as the result lists it', () => {
  it("takes a venue refusal's sym from the kernel, as the refusal carries no intent", () => {
    expect(denialRecordOf({ ...refusal, sym: BTC }).sym).toBe(BTC);
    expect(denialRecordOf(refusal)).not.toHaveProperty('sym');
  });

  it("takes a kernel or risk denial's sym from its intent", () => {
    const denied: IntentDenied = {
      ...refusal,
      source: 'risk',
      check: 'reduceOnly',
      intent: { kind: 'closePosition', ref: 's-3', sym: BTC, positionSide: 'NONE' },
    };
    expect(denialRecordOf(denied).sym).toBe(BTC);
  });
});
