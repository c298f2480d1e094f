import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IntentKind } from '../../../../core/model/index.ts';
import { refusalLogLevel, refusalLogMessage } from '../../../../core/venue/live/refusal-log-level.ts';

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

describe('the message of a failed command in the log', () => {
  it("names Keel's own codes as no answer, not as the venue's refusal", () => {
    expect(refusalLogMessage(-1)).toBe('no answer from the venue to a command: it may have taken effect');
    expect(refusalLogMessage(-2)).toBe('no answer from the venue to a command, which did not take effect');
  });

  it("is the venue's refusal for every venue code", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999 }), (code) => {
        expect(refusalLogMessage(code)).toBe('venue refused a command');
      }),
    );
  });
});
