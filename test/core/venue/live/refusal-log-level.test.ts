import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IntentKind } from '../../../../core/model/index.ts';
import { refusalLogLevel } from '../../../../core/venue/live/refusal-log-level.ts';

const KINDS: readonly IntentKind[] = [
  'placeOrder',
  'modifyOrder',
  'cancelOrder',
  'cancelOrders',
  'placeAlgoOrder',
  'cancelAlgoOrder',
  'closePosition',
  'borrow',
  'repay',
];

describe('the level of a refused command in the log', () => {
  it('is info for a cancel or modify of an order already final, the race a fill wins', () => {
    for (const kind of ['cancelOrder', 'modifyOrder'] as const) {
      expect(refusalLogLevel(kind, 401058)).toBe('info');
      expect(refusalLogLevel(kind, 401117)).toBe('info');
    }
  });

  it('is warn for every other kind and code', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), fc.integer({ min: -10, max: 999_999 }), (kind, code) => {
        const routine =
          (kind === 'cancelOrder' || kind === 'modifyOrder') && (code === 401058 || code === 401117);
        expect(refusalLogLevel(kind, code)).toBe(routine ? 'info' : 'warn');
      }),
    );
  });
});
