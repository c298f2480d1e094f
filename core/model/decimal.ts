import { Decimal } from 'decimal.js';

/**
 * Money and quantities: decimal.js values parsed from the venue's strings, never through a float.
 * Precision is raised so that no venue value (prices, quantities, fees, PnL) is ever rounded.
 */
const MoneyDecimal = Decimal.clone({
  precision: 40,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -30,
  toExpPos: 40,
});

/** A decimal.js value used for every amount of money or quantity. */
export type Dec = Decimal;

/** The decimal.js constructor configured for Keel's money (precision 40, no exponent notation). */
export const D = MoneyDecimal;

/** Decimal zero, shared because Decimals are immutable. */
export const ZERO: Dec = new MoneyDecimal(0);

/** Decimal one. */
export const ONE: Dec = new MoneyDecimal(1);

const VENUE_DECIMAL = /^-?(?:\d+)(?:\.\d+)?$|^-?\.\d+$/;

/**
 * Parses a decimal string exactly as the venue sends it ("123.4500", "-0.01", "0").
 * @param text - the venue's string
 * @param field - the field name, used in the error message
 * @returns the exact Decimal value
 * @throws TypeError when `text` is not a plain decimal number (exponents, spaces, NaN are refused)
 */
export function parseDecimal(text: string, field = 'value'): Dec {
  if (!VENUE_DECIMAL.test(text)) {
    throw new TypeError(`${field} must be a decimal string like "123.45", got ${JSON.stringify(text)}`);
  }
  return new MoneyDecimal(text);
}

/**
 * Formats a Decimal the way the venue writes numbers: plain notation, no exponent.
 * @param value - the amount
 * @param decimals - fixed number of decimal places; omitted = shortest exact form
 * @returns the string to put on the wire
 */
export function formatDecimal(value: Dec, decimals?: number): string {
  return decimals === undefined ? value.toFixed() : value.toFixed(decimals, Decimal.ROUND_DOWN);
}

/**
 * The exact path from a hot-path number back to money. A number parsed from a venue string with
 * at most 15 significant digits prints back (shortest form) to the same decimal value, so this
 * is lossless for every price and quantity the venue sends. Such a number's Decimal is built from
 * its digits ({@link fewDigitDecimal}) rather than printed and parsed (decimal.js parses a string
 * in about a microsecond, and a run turns prices into money once per fill and equity point); any
 * other number goes through its string.
 * @param value - a number that was parsed from a venue decimal string
 * @returns the Decimal of the same decimal value, identical (sign, exponent, digit words) to
 *   `new D(value.toString())`
 */
export function decimalOf(value: number): Dec {
  return fewDigitDecimal(value) ?? new MoneyDecimal(value.toString());
}

/**
 * The Decimal of a price computed from venue numbers, such as a quote's mid `(bid + ask) / 2`:
 * the float sum carries a binary tail (94999.29999999999 for the mid of 94999.2 and 94999.4),
 * which {@link decimalOf} would keep. Rounded to 15 significant digits, it gives back the exact
 * decimal whenever that has at most 15 (the mid of two venue prices of at most 14 does), so the
 * risk gate's notionals and their denial messages carry the price, not the tail. A number of at
 * most 15 significant digits (a venue price as it came) is taken as {@link decimalOf} takes it.
 * @param value - a finite number computed from venue numbers
 * @returns its Decimal
 */
export function decimalOfComputed(value: number): Dec {
  return fewDigitDecimal(value) ?? new MoneyDecimal(value.toPrecision(15));
}

/** The largest integer of 15 digits: two decimals of at most 15 significant digits never round to one double. */
const FIFTEEN_DIGITS = 999_999_999_999_999;

/**
 * The Decimal of a non-zero finite number that some decimal of at most 15 significant digits
 * rounds to: that decimal is then the only one of so few digits that does, so it is the value the
 * shortest form `toString` prints. Found as m x 10^-k for the first k up to 22 where m, the
 * rounded number x 10^k, divides back to the number (exact powers of ten: the division is
 * correctly rounded, so it gives the number back only when the decimal rounds to it).
 * @returns the Decimal, or undefined for zero, NaN, infinities and numbers needing more digits
 */
function fewDigitDecimal(value: number): Dec | undefined {
  const abs = Math.abs(value);
  if (!(abs > 0)) return undefined;
  for (let k = 0; k <= 22; k++) {
    const power = EXACT_POWERS_OF_TEN[k] as number;
    const scaled = abs * power;
    if (scaled > FIFTEEN_DIGITS) return undefined;
    const digits = Math.round(scaled);
    if (digits > 0 && digits / power === abs) return decimalOfDigits(value < 0 ? -1 : 1, digits, k);
  }
  return undefined;
}

/**
 * sign x digits x 10^-scale as decimal.js holds it: the decimal exponent of the first digit, and
 * the digits in base-1e7 words aligned to the decimal point, without trailing zero words, as its
 * parser leaves them. The object is made by the constructor (one hidden class for every Decimal)
 * and given its fields before anyone sees it.
 */
function decimalOfDigits(sign: number, digits: number, scale: number): Dec {
  let m = digits;
  let k = scale;
  while (m % 10 === 0) {
    m /= 10;
    k--;
  }
  let count = 1;
  while (count < 16 && m >= (EXACT_POWERS_OF_TEN[count] as number)) count++;
  // The last word counts units of 10^(7 floor(-k / 7)): its lowest `shift` digits are zeros.
  const shift = -k - Math.floor(-k / 7) * 7;
  const lowUnit = EXACT_POWERS_OF_TEN[7 - shift] as number;
  const low = m % lowUnit;
  // Lowest word first, reversed once done (one or two words for a price). Each word, below 1e7,
  // is stored as a small integer (| 0), as the parser's are: an array of doubles would give
  // decimal.js's digit loops a second kind of array to handle everywhere.
  const words = [(low * (EXACT_POWERS_OF_TEN[shift] as number)) | 0];
  for (let rest = (m - low) / lowUnit; rest > 0; ) {
    const word = rest % 1e7;
    words.push(word | 0);
    rest = (rest - word) / 1e7;
  }
  words.reverse();
  const decimal = new MoneyDecimal(1);
  const fields = decimal as unknown as { s: number; e: number; d: number[] };
  fields.s = sign;
  fields.e = count - 1 - k;
  fields.d = words;
  return decimal;
}

/**
 * How far, in units of the last place of a number, float noise may have moved it off the grid point
 * it was meant to be on: a product or sum of a few exact-looking numbers is off by an ulp or two.
 */
const NOISE_ULPS = 4;

/**
 * A number that came out of float arithmetic, as money about to be rounded to a grid of `step`
 * (a tick or lot), so that rounding does not lose the step it was meant to be on: `33.4 * 3` is
 * 100.19999999999999, which floors to 100.1 on a 0.1 tick, but was meant as 100.2, and
 * `2.84834476 * 90` is 256.35102839999996, meant as 256.3510284 on a 1e-8 lot. The number is taken
 * exactly when it lies on the grid (12345.12345678 on a 1e-8 lot stays, whatever its number of
 * digits); off the grid, the nearest grid point is taken instead only when the two differ by at
 * most a few units in the last place of the number (float noise, whatever the size of the number
 * against the step), else the exact value (an amount that is truly off the grid rounds as written,
 * never past it).
 * @param value - a finite number
 * @param step - the grid step it will be rounded to, positive
 * @returns the Decimal to round
 */
export function decimalForStep(value: number, step: Dec): Dec {
  const exact = decimalOf(value);
  if (isOnStep(exact, step)) return exact;
  const nearest = exact.div(step).round().mul(step);
  const noise = Math.abs(value) * Number.EPSILON * NOISE_ULPS;
  return nearest.sub(exact).abs().lte(noise) ? nearest : exact;
}

/** Powers of ten as doubles, index = exponent: 10^22 is the largest one a double holds exactly. */
const EXACT_POWERS_OF_TEN: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * The same double as `value.toNumber()`, without decimal.js's own printing: a hot path reads money
 * as numbers several times per event (estimates, indicators, sizing). When the digits form an
 * integer below 2^53 and the decimal exponent is within 22, one IEEE multiplication or division of
 * two exact doubles gives the correctly rounded result, which is what parsing the string gives
 * (Clinger's fast path). Any other finite value (more digits: a balance after a share or a fee
 * carries 20 and more) parses its digits and exponent as written here, the very value decimal.js
 * would print, so the parse rounds it alike; NaN and infinities go through `toNumber()`.
 * @param value - a Decimal
 * @returns the nearest double, -0 for negative zero
 */
export function asNumber(value: Dec): number {
  // decimal.js keeps the digits in base-1e7 words (`d`, null for NaN and infinities), the decimal
  // exponent (`e`) and the sign (`s`). The words are aligned to the decimal point: the first one
  // counts units of 10^(7k) for k = floor(e / 7), each next one units 10^7 times smaller.
  const { d, e, s } = value;
  if (d === null) return value.toNumber();
  const scale = Math.floor(e / 7) * 7 - 7 * (d.length - 1);
  if (d.length > 3) return s * parsedDigits(d, scale);
  let mantissa = 0;
  for (const word of d) mantissa = mantissa * 1e7 + word;
  if (mantissa > Number.MAX_SAFE_INTEGER) return s * parsedDigits(d, scale);
  if (scale >= 0 && scale <= 22) return s * (mantissa * (EXACT_POWERS_OF_TEN[scale] as number));
  if (scale < 0 && scale >= -22) return s * (mantissa / (EXACT_POWERS_OF_TEN[-scale] as number));
  return s * parsedDigits(d, scale);
}

/** Zeros that pad a base-1e7 word of n digits (the index) to its 7. */
const WORD_PADDING: readonly string[] = ['', '000000', '00000', '0000', '000', '00', '0', ''];

/**
 * The double nearest `digits x 10^scale`, parsed from the words written out (each after the first
 * padded to its 7 digits) with the exponent: JavaScript's parse rounds correctly, as it does the
 * string decimal.js prints for the same value.
 */
function parsedDigits(words: readonly number[], scale: number): number {
  let text = `${words[0] as number}`;
  for (let i = 1; i < words.length; i++) {
    const word = `${words[i] as number}`;
    text += (WORD_PADDING[word.length] as string) + word;
  }
  return +`${text}e${scale}`;
}

/**
 * Parses a venue decimal string into a number for the per-event hot path (comparisons,
 * indicators). Use {@link decimalOf} to come back to money.
 * @param text - the venue's string
 * @returns the nearest double
 */
export function numberOf(text: string): number {
  return +text;
}

/**
 * `value > 0` as decimal.js's `gt(0)` decides it (false for zero, negatives and NaN), read off the
 * sign and digits: `gt(0)` first builds a Decimal zero to compare with, on paths that run per order.
 * @param value - the value
 * @returns true when value is above zero
 */
export function isAboveZero(value: Dec): boolean {
  return value.s > 0 && !value.isZero();
}

/**
 * `value < 0` as decimal.js's `lt(0)` decides it (false for zero, a negative zero, positives and
 * NaN), read off the sign and digits.
 * @param value - the value
 * @returns true when value is below zero
 */
export function isBelowZero(value: Dec): boolean {
  return value.s < 0 && !value.isZero();
}

/**
 * Rounds a value down to a multiple of `step` (a tick or lot size).
 * @param value - amount to round
 * @param step - the grid step, positive
 * @returns the largest multiple of step that is <= value
 */
export function floorToStep(value: Dec, step: Dec): Dec {
  return value.div(step).floor().mul(step);
}

/**
 * Whether a value lies on a grid of `step` (tick or lot size).
 * @param value - amount to test
 * @param step - the grid step, positive
 * @returns true when value is an integer multiple of step
 */
export function isOnStep(value: Dec, step: Dec): boolean {
  // Ticks and lots are nearly always 10^-k: then the test is exact on the decimal places, with no
  // division (the modulo is the costliest check on the order path).
  const digits = step.d;
  if (step.s === 1 && step.e <= 0 && digits?.length === 1 && POWERS_OF_TEN.has(digits[0] as number)) {
    return value.decimalPlaces() <= -step.e;
  }
  return value.mod(step).isZero();
}

/** The values a base-1e7 digit of decimal.js takes when the whole number is a power of ten. */
const POWERS_OF_TEN: ReadonlySet<number> = new Set([1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]);
