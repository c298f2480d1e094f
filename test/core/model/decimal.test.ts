import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalOf, formatDecimal, numberOf, parseDecimal } from '../../../core/model/index.ts';

/** Decimal strings as the venue writes them: optional minus, no leading zeros, optional fraction. */
const venueDecimal = fc
  .record({
    negative: fc.boolean(),
    int: fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9]\d{0,11}$/)),
    frac: fc.stringMatching(/^\d{0,12}$/),
  })
  .filter((p) => !(p.negative && /^0*$/.test(p.int + p.frac)))
  .map((p) => `${p.negative ? '-' : ''}${p.int}${p.frac.length ? `.${p.frac}` : ''}`);

const fractionDigits = (text: string): number => (text.includes('.') ? text.split('.')[1]!.length : 0);

describe('decimal parsing and formatting', () => {
  it('prints a venue string back unchanged at its own number of decimals', () => {
    fc.assert(
      fc.property(venueDecimal, (text) => {
        expect(formatDecimal(parseDecimal(text), fractionDigits(text))).toBe(text);
      }),
    );
  });

  it('prints the shortest exact form without trailing zeros or exponent', () => {
    fc.assert(
      fc.property(venueDecimal, (text) => {
        const shortest = formatDecimal(parseDecimal(text));
        expect(shortest).not.toMatch(/e/i);
        expect(parseDecimal(shortest).eq(parseDecimal(text))).toBe(true);
        if (shortest.includes('.')) expect(shortest).not.toMatch(/0$/);
      }),
    );
  });

  it('keeps every digit of long values that a double would round', () => {
    expect(formatDecimal(parseDecimal('12345678901234567890.123456789'))).toBe(
      '12345678901234567890.123456789',
    );
    expect(parseDecimal('0.1').plus(parseDecimal('0.2')).eq(parseDecimal('0.3'))).toBe(true);
  });

  it('comes back from the hot-path number to the exact Decimal for up to 15 significant digits', () => {
    const fifteenDigits = venueDecimal.filter((t) => t.replace(/[-.]/g, '').replace(/^0+/, '').length <= 15);
    fc.assert(
      fc.property(fifteenDigits, (text) => {
        expect(decimalOf(numberOf(text)).eq(parseDecimal(text))).toBe(true);
      }),
    );
  });

  it.each(['1e5', ' 1', '1 ', 'NaN', 'Infinity', '', '-', '1.', '0x10', '+1', '1,5'])(
    'refuses %j and names the field',
    (text) => {
      expect(() => parseDecimal(text, 'limitPrice')).toThrow(/limitPrice must be a decimal string/);
    },
  );
});
