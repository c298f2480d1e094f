import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalValue, positiveDecimal } from '../../../config/schema/decimal-value.ts';
import { D } from '../../../core/model/index.ts';

describe('decimalValue', () => {
  it('reads a decimal string written in exponent form, as a tick or lot size often is', () => {
    expect(decimalValue.parse('1e-8').toString()).toBe(D('0.00000001').toString());
    expect(decimalValue.parse('2.5E+3').eq(2500)).toBe(true);
    expect(positiveDecimal.parse('1e-8').eq(D('0.00000001'))).toBe(true);
  });

  it('reads the text of every Decimal back to the same value, exponent or not', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.integer({ min: -30, max: 30 }),
        (digits, exp) => {
          const value = D(digits.toString()).times(D(10).pow(exp));
          expect(decimalValue.parse(value.toString()).eq(value)).toBe(true);
        },
      ),
    );
  });

  it('refuses text that is not one decimal number, and an exponent beyond two digits', () => {
    for (const text of [
      '',
      'e5',
      '1e',
      '1e+',
      '1.e5',
      '0x10',
      ' 1',
      '1e100',
      '1e-999999999',
      'Infinity',
      'NaN',
      '1_000',
    ]) {
      const result = decimalValue.safeParse(text);
      expect(result.success, text).toBe(false);
    }
  });
});
