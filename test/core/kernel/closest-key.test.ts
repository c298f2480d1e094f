import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closestKey } from '../../../core/kernel/closest-key.ts';

describe('did-you-mean for unknown keys', () => {
  it('suggests the key whose two adjacent letters were swapped, even in a short key', () => {
    expect(closestKey('fats', ['fast', 'slow', 'sym'])).toBe('fast');
    expect(closestKey('slwo', ['fast', 'slow', 'sym'])).toBe('slow');
    expect(closestKey('ysm', ['fast', 'slow', 'sym'])).toBe('sym');
    expect(closestKey('closeAtEnds', ['closeAtEnd', 'recordings'])).toBe('closeAtEnd');
    expect(closestKey('startignCash', ['startingCash', 'fees'])).toBe('startingCash');
  });

  it('suggests the plural key for its singular and the other way round, however far apart', () => {
    expect(closestKey('strategy', ['strategies', 'instruments', 'mode'])).toBe('strategies');
    expect(closestKey('instrument', ['strategies', 'instruments', 'mode'])).toBe('instruments');
    expect(closestKey('recording', ['recordings', 'startingCash'])).toBe('recordings');
    expect(closestKey('Instruments', ['instrument'])).toBe('instrument');
  });

  it('suggests nothing for a key that is not a slip of any known one', () => {
    expect(closestKey('tsaf', ['fast', 'slow'])).toBeUndefined();
    expect(closestKey('period', ['fast', 'slow'])).toBeUndefined();
  });

  it('takes any one swap of adjacent letters of a known key back to it', () => {
    const known = ['fast', 'slow', 'interval', 'fraction', 'allowShort'];
    fc.assert(
      fc.property(fc.constantFrom(...known), fc.nat(), (key, at) => {
        const i = at % (key.length - 1);
        const swapped = key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2);
        fc.pre(swapped !== key);
        expect(closestKey(swapped, known)).toBe(key);
      }),
    );
  });
});
