import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  asNumber,
  D,
  decimalOf,
  decimalOfComputed,
  formatDecimal,
  isAboveZero,
  isBelowZero,
  isOnStep,
  numberOf,
  parseDecimal,
} from '../../../core/model/index.ts';

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

  it('builds from any number the very Decimal its shortest form parses to (sign, exponent, digit words)', () => {
    const fromDigits = fc
      .tuple(
        fc.integer({ min: 0, max: 999_999_999_999_999 }),
        fc.integer({ min: -30, max: 30 }),
        fc.boolean(),
      )
      .map(([digits, exponent, negative]) => (negative ? -1 : 1) * Number(`${digits}e${exponent}`));
    fc.assert(
      fc.property(fc.oneof(fromDigits, fc.double()), (value) => {
        const built = decimalOf(value);
        const parsed = new D(value.toString());
        expect([built.s, built.e, built.d]).toEqual([parsed.s, parsed.e, parsed.d]);
        expect(built.toFixed()).toBe(parsed.toFixed());
      }),
      { numRuns: 5000 },
    );
    for (const value of [0, -0, 0.1 + 0.2, 1e21, 5e-324, 1e-22, 2 ** 53, 1 / 3, 40016.2, 40000, -0.00012]) {
      const built = decimalOf(value);
      const parsed = new D(value.toString());
      expect([built.s, built.e, built.d]).toEqual([parsed.s, parsed.e, parsed.d]);
    }
  });

  it('keeps the digit words of a Decimal built from a number as small integers, as parsed ones are', () => {
    // Arrays of doubles would give decimal.js's digit loops a second kind of array everywhere.
    const decimal = pathToFileURL(resolve('core/model/decimal.ts')).href;
    const script = [
      `const { decimalOf } = await import(${JSON.stringify(decimal)});`,
      "const smi = new Function('a', 'return %HasSmiElements(a)');",
      'let doubles = 0;',
      'for (let i = 0; i < 2000; i++) if (!smi(decimalOf(40000 + i / 10 + 0.05).d)) doubles++;',
      'console.log(doubles);',
    ].join('\n');
    const child = spawnSync(
      process.execPath,
      ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('0');
  });

  it('turns a price of up to 15 significant digits into money without printing it', () => {
    const printed = vi.spyOn(Number.prototype, 'toString');
    try {
      expect(decimalOf(40016.2).toFixed()).toBe('40016.2');
      expect(decimalOf(-0.00012).toFixed()).toBe('-0.00012');
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });

  it.each(['1e5', ' 1', '1 ', 'NaN', 'Infinity', '', '-', '1.', '0x10', '+1', '1,5'])(
    'refuses %j and names the field',
    (text) => {
      expect(() => parseDecimal(text, 'limitPrice')).toThrow(/limitPrice must be a decimal string/);
    },
  );
});

describe('decimalOfComputed', () => {
  it('gives the exact mid of two venue prices, not the float tail of (bid + ask) / 2', () => {
    const mid = (94999.2 + 94999.4) / 2;
    expect(decimalOf(mid).toFixed()).toBe('94999.29999999999');
    expect(decimalOfComputed(mid).toFixed()).toBe('94999.3');
  });

  it('recovers the exact mid of any two venue prices of at most 14 significant digits', () => {
    const price = fc
      .record({ int: fc.stringMatching(/^[1-9]\d{0,6}$/), frac: fc.stringMatching(/^\d{1,6}$/) })
      .map((p) => `${p.int}.${p.frac}`)
      .filter((text) => text.replace('.', '').replace(/^0+/, '').length <= 14);
    fc.assert(
      fc.property(price, price, (bid, ask) => {
        const exact = parseDecimal(bid).plus(parseDecimal(ask)).div(2);
        expect(decimalOfComputed((numberOf(bid) + numberOf(ask)) / 2).eq(exact)).toBe(true);
      }),
    );
  });

  it('takes a venue price of at most 15 significant digits as it came, as decimalOf does', () => {
    const fifteenDigits = venueDecimal.filter(
      (text) => text.replace(/[-.]/g, '').replace(/^0+/, '').length <= 15,
    );
    fc.assert(
      fc.property(fifteenDigits, (text) => {
        const value = numberOf(text);
        expect(decimalOfComputed(value).eq(decimalOf(value))).toBe(true);
      }),
    );
  });
});

describe('asNumber', () => {
  /** Any digits at any exponent, from tiny to huge, and results of arithmetic (40-digit quotients). */
  const anyDecimal = fc.oneof(
    fc
      .record({
        digits: fc.stringMatching(/^[1-9]\d{0,24}$/),
        exp: fc.integer({ min: -60, max: 60 }),
        neg: fc.boolean(),
      })
      .map(({ digits, exp, neg }) => D(`${neg ? '-' : ''}${digits}e${exp}`)),
    fc.tuple(venueDecimal, venueDecimal).map(([a, b]) => D(a).mul(b)),
    fc
      .tuple(
        venueDecimal,
        venueDecimal.filter((b) => !D(b).isZero()),
      )
      .map(([a, b]) => D(a).div(b)),
  );

  it('gives exactly the double toNumber gives, for any digits, exponent and sign', () => {
    fc.assert(
      fc.property(anyDecimal, (value) => {
        expect(Object.is(asNumber(value), value.toNumber())).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('keeps negative zero, the nearest double of 0.1 and the limits of its fast path', () => {
    expect(Object.is(asNumber(D('-0')), -0)).toBe(true);
    expect(asNumber(D('0.1'))).toBe(0.1);
    expect(asNumber(D('9007199254740993'))).toBe(9007199254740992);
    expect(asNumber(D('1e-30'))).toBe(1e-30);
    expect(asNumber(D('123456.7e20'))).toBe(1.234567e25);
    expect(Number.isNaN(asNumber(D(Number.NaN)))).toBe(true);
    expect(asNumber(D(Number.POSITIVE_INFINITY))).toBe(Number.POSITIVE_INFINITY);
  });

  it('reads long digit runs and exponents past a double the way toNumber does', () => {
    const cases = [
      '100000.4284484285714285714285714285714286',
      '-99077.891890200000000000000000000000001',
      '0.0000001000000000000000000000000000000001',
      '1.7976931348623159e308',
      '2.4703282292062328e-324',
      '1e400',
      '-1e-400',
      '123456789012345678901234567890e-350',
    ];
    for (const text of cases) expect(Object.is(asNumber(D(text)), D(text).toNumber())).toBe(true);
  });
});

describe('isOnStep', () => {
  it('answers exactly as the modulo does, for power-of-ten steps (decimal places) and any other step', () => {
    const step = fc.oneof(
      fc.integer({ min: 0, max: 12 }).map((k) => D(10).pow(-k)),
      fc.constantFrom(D('0.5'), D('0.25'), D('0.0005'), D(10), D(100), D('2.5'), D('1e-8')),
    );
    fc.assert(
      fc.property(venueDecimal, step, (text, s) => {
        const value = D(text);
        expect(isOnStep(value, s)).toBe(value.mod(s).isZero());
        expect(isOnStep(value.mul(s).floor().mul(s), s)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('says a value off a 0.01 grid is off it and a value on it with trailing zeros is on it', () => {
    expect(isOnStep(D('1.005'), D('0.01'))).toBe(false);
    expect(isOnStep(D('1.0500'), D('0.01'))).toBe(true);
    expect(isOnStep(D('-0'), D('0.01'))).toBe(true);
    expect(isOnStep(D(Number.NaN), D('0.01'))).toBe(false);
  });
});

describe('isAboveZero and isBelowZero', () => {
  it('decide > 0 and < 0 as decimal.js gt(0) and lt(0) do, zeros of both signs, infinities and NaN included', () => {
    const specials = [D(0), D('-0'), D('1e-400'), D('-1e-400'), D(Infinity), D(-Infinity), D(Number.NaN)];
    const values = [...specials, ...fc.sample(venueDecimal, 200).map((text) => D(text))];
    for (const value of values) {
      expect(isAboveZero(value)).toBe(value.gt(0));
      expect(isBelowZero(value)).toBe(value.lt(0));
    }
  });
});
