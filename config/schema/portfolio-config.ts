import { z } from 'zod';
import { nonNegativeDecimal } from './decimal-value.ts';

/** A portfolio id as the venue names it (Keel's choice of allowed characters). */
export const portfolioId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, { error: 'must be letters, digits, "_", "." or "-"' });

/** A sub-portfolio and the fee markup it pays on top of the main rates. */
export const subPortfolioSchema = z.strictObject({
  id: portfolioId.describe('The sub-portfolio id.'),
  feeMarkupBps: nonNegativeDecimal
    .refine((bps) => bps.decimalPlaces() <= 2, { message: 'must be a multiple of 0.01 bps' })
    .prefault(0)
    .describe('Markup on maker and taker rates in basis points (0.01 bps steps); rate = bps / 10000.'),
});

/** The main portfolio and its sub-portfolios. */
export const portfoliosConfigSchema = z.strictObject({
  main: portfolioId.default('main').describe('The main portfolio id.'),
  subs: z.array(subPortfolioSchema).default([]).describe('Sub-portfolios, each with its fee markup.'),
});

/** Portfolios of a run, validated. */
export type PortfoliosConfig = z.output<typeof portfoliosConfigSchema>;
