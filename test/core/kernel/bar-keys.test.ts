import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barKey } from '../../../core/kernel/bar-keys.ts';
import type { BarInterval } from '../../../core/model/index.ts';

describe('bar keys', () => {
  it('is `{sym}|{interval}` for any pair, asked once or many times', () => {
    const interval = fc.constantFrom<BarInterval>('1m', '5m', '1h', '1d');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 12 }), interval), { maxLength: 30 }), (pairs) => {
        for (const [sym, every] of [...pairs, ...pairs]) expect(barKey(sym, every)).toBe(`${sym}|${every}`);
      }),
    );
  });
});
