import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Intent, unknownFieldValue } from '../../../core/model/index.ts';
import { arbitraryIntent } from '../../kit/intent-arbitraries.ts';
import { aLimitOrder, aSellStop } from '../../kit/intent-builders.ts';

/** How many times an array iterator is asked for while `run` runs. */
function iterationsDuring(run: () => void): number {
  const iterator = Array.prototype[Symbol.iterator];
  let count = 0;
  Array.prototype[Symbol.iterator] = function (this: unknown[]) {
    count++;
    return iterator.call(this);
  };
  try {
    run();
  } finally {
    Array.prototype[Symbol.iterator] = iterator;
  }
  return count;
}

describe('unknownFieldValue', () => {
  it('checks every field of a new order, an algo order and a close without a list of them made per intent', () => {
    const intents: Intent[] = [
      aLimitOrder({ ref: 'a' }),
      aSellStop({ ref: 'b' }),
      { kind: 'closePosition', ref: 'c', sym: 'BTC', positionSide: 'NONE' },
    ];
    const checkAll = (): void => {
      // Indexed: a for-of would itself ask for the iterator being counted.
      for (let i = 0; i < intents.length; i++) unknownFieldValue(intents[i] as Intent);
    };
    expect(iterationsDuring(checkAll)).toBe(0);
  });

  it('names the first field in the venue order that holds an unknown value', () => {
    const bad = { ...aLimitOrder(), side: 'buy', timeInForce: 'gtc' } as unknown as Intent;
    expect(unknownFieldValue(bad)).toEqual({ field: 'side', value: 'buy', allowed: ['BUY', 'SELL'] });
    const badLeg = { ...aLimitOrder(), sl: { triggerType: 'LAST' } } as unknown as Intent;
    expect(unknownFieldValue(badLeg)?.field).toBe('sl.triggerType');
    const noFlag = { ...aLimitOrder(), reduceOnly: undefined } as unknown as Intent;
    expect(unknownFieldValue(noFlag)).toBeUndefined();
  });

  it('finds nothing wrong with any intent the factory arbitraries build', () => {
    fc.assert(fc.property(arbitraryIntent(), (intent) => unknownFieldValue(intent) === undefined));
  });
});
