import { z } from 'zod';
import { D, type Dec } from '../../../core/model/index.ts';

/** A Decimal in a result file: an exact decimal string, read back as a Decimal. */
export const decimalField = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/, 'must be a decimal string like "123.45"')
  .transform((text): Dec => new D(text));

/** A position side in a result file. */
export const positionSideField = z.enum(['NONE', 'LONG', 'SHORT']);

/** An order side in a result file. */
export const sideField = z.enum(['BUY', 'SELL']);
