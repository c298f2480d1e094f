import { describe, expect, it } from 'vitest';
import { unsentTimeOrderWarnings } from '../../../backtest/runner/unsent-time-orders.ts';
import { D } from '../../../core/model/index.ts';
import { anOrder } from '../../kit/order-builders.ts';

/** 2025-01-06 14:36:00 UTC, the last event. */
const END = Date.UTC(2025, 0, 6, 14, 36);

describe('TIME orders never sent', () => {
  it('names a TIME order whose New York timeToSend came after the last event, with the UTC time it was read as', () => {
    const late = anOrder({
      clientOrderId: 'late',
      condition: { code: 'TIME', timeToSend: '2025-01-06 14:33:30' },
    });
    // 09:33:30 New York (EST, UTC-5) is 14:33:30 UTC, before the end: due, so no warning.
    const due = anOrder({
      clientOrderId: 'due',
      condition: { code: 'TIME', timeToSend: '2025-01-06 09:33:30' },
    });
    const stop = anOrder({ clientOrderId: 'stop', condition: { code: 'SL', triggerPrice: D('90') } });
    expect(unsentTimeOrderWarnings([late, due, stop, anOrder({ clientOrderId: 'plain' })], END)).toEqual([
      'TIME order late was never sent: its timeToSend 2025-01-06 14:33:30 (New York time) is 2025-01-06 19:33:30 UTC, after the last event at 2025-01-06 14:36:00 UTC',
    ]);
  });
});
