import { z } from 'zod';
import { ORDER_SIDES, POSITION_MODES, POSITION_SIDES } from '../../model/index.ts';

/** A decimal number written as a string, exactly as the venue sends money ("123.45", "-0.01"). */
export const decimalText = z.string().regex(/^-?(?:\d+)(?:\.\d+)?$|^-?\.\d+$/, 'must be a decimal string');

/** Epoch milliseconds: a number, or digits in a string (both seen in public venue docs). */
export const epochMs = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .regex(/^\d+$/, 'must be epoch milliseconds')
    .transform((text) => Number(text)),
]);

/** BUY or SELL (per public venue docs). */
export const sideText = z.enum(ORDER_SIDES);

/** Position side of the spec: NONE, LONG or SHORT. */
export const positionSideText = z.enum(POSITION_SIDES);

/** Position mode of the spec: NET or BOTH. */
export const positionModeText = z.enum(POSITION_MODES);

/**
 * The spec's envelope `{ code, message, data }`. The public venue also writes `msg` for
 * `message` (per public venue docs); either is accepted.
 */
export const envelopeSchema = z.looseObject({
  code: z.union([
    z.number().int(),
    z
      .string()
      .regex(/^-?\d+$/)
      .transform(Number),
  ]),
  message: z.string().optional(),
  msg: z.string().optional(),
  data: z.unknown().optional(),
});

/** The decoded envelope. */
export type EnvelopeWire = z.output<typeof envelopeSchema>;

/**
 * A page of a paginated reply: `{ page, pageSize, totalSize, list }` (per public venue docs).
 * @param item - schema of one list entry
 * @returns the page schema
 */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.looseObject({
    page: z.number().int(),
    pageSize: z.number().int(),
    totalSize: z.number().int(),
    list: z.array(item),
  });
}

/** A decoded page. */
export interface PageWire<T> {
  readonly page: number;
  readonly pageSize: number;
  readonly totalSize: number;
  readonly list: readonly T[];
}

/**
 * A list reply. The spec does not show whether list endpoints answer a bare array or
 * `{ list: [...] }`; Keel accepts both and always yields the array (Keel's choice).
 * @param item - schema of one entry
 * @returns a schema whose output is the array
 */
export function listOf<T extends z.ZodType>(item: T) {
  return z.union([
    z.array(item),
    z.looseObject({ list: z.array(item) }).transform((wrapped) => wrapped.list),
  ]);
}

/** Request parameters of a paged query (per public venue docs). */
export interface PageRequest {
  readonly page?: number;
  readonly pageSize?: number;
  /** Start of the window, epoch ms. */
  readonly begin?: number;
  /** End of the window, epoch ms. */
  readonly end?: number;
}
