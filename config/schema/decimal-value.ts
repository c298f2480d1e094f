import { z } from 'zod';
import { D, type Dec } from '../../core/model/index.ts';

/** Digits with an optional fraction, then an optional exponent of at most two digits (`1e-8`). */
export const DECIMAL_TEXT = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d{1,2})?$/;

/** The message every malformed decimal gets, so a user sees one sentence, not a union report. */
const NOT_A_DECIMAL = 'must be a decimal number like 0.5, "0.5" or "1e-8"';

/**
 * A money or quantity value in a config: a YAML number (`0.5`) or a decimal string (`"0.5"`, `"1e-8"`),
 * turned into an exact Decimal. A YAML number goes through its shortest printed form, which is
 * the text the user wrote for every value with at most 15 significant digits.
 */
export const decimalValue = z
  .union([z.number(), z.string().regex(DECIMAL_TEXT, { error: NOT_A_DECIMAL })], { error: NOT_A_DECIMAL })
  .transform((value): Dec => D(String(value)));

/** A decimal value that must be greater than zero (sizes, prices, cash). */
export const positiveDecimal = decimalValue.refine((value) => value.gt(0), { message: 'must be positive' });

/** A decimal value that must be zero or more (fees, markups). */
export const nonNegativeDecimal = decimalValue.refine((value) => value.gte(0), {
  message: 'must be zero or more',
});
