import type { Dec } from '../../core/model/index.ts';
import type { OpenLeg } from './open-leg.ts';

/*
 * Figures read off the balances and positions alone, kept on the venue with the portfolio version
 * (`SimState.portfolioVersion`) they were worked out at: the equity is sampled and the margin
 * screened on every bar and market event, and these change only with a fill, a funding or
 * interest charge, a borrow or a repay.
 */

/** The balances summed on numbers, and whether every coin held is a valuation coin. */
export interface ValuationSum {
  /** Whether every coin with a balance is a valuation coin (worth 1 whatever the marks). */
  readonly all: boolean;
  /** The balances of the valuation coins summed in their order (all of them when `all`). */
  readonly value: number;
}

/** The Decimal parts of the equity in the common case: valuation-coin balances, no loans. */
export interface EquityParts {
  readonly balances: readonly Dec[];
  readonly positions: readonly EquityPart[];
}

/** One open position of {@link EquityParts}. */
export interface EquityPart {
  readonly qty: Dec;
  readonly size: Dec;
  /** The position's cost (immutable: a fill replaces it), which its unrealized PnL is taken from. */
  readonly cost: Dec;
  readonly sym: string;
}

/** Each figure with the portfolio version it was worked out at (-1: not yet). */
export interface PortfolioFigures {
  valuationSumAt: number;
  valuationSum: ValuationSum;
  heldAcrossMarksAt: number;
  /** Whether a coin not of valuation is held, or positions are open on two syms. */
  heldAcrossMarks: boolean;
  equityPartsAt: number;
  /** Undefined when another case applies (a coin or settle asset not of valuation). */
  equityParts: EquityParts | undefined;
  openLegsAt: number;
  /** The margin positions with a non-zero qty (`open-legs.ts`). */
  openLegs: readonly OpenLeg[];
}

/**
 * The figures of a new venue: none worked out yet.
 * @returns the record, mutated as figures are worked out
 */
export function noFiguresYet(): PortfolioFigures {
  return {
    valuationSumAt: -1,
    valuationSum: { all: true, value: 0 },
    heldAcrossMarksAt: -1,
    heldAcrossMarks: false,
    equityPartsAt: -1,
    equityParts: undefined,
    openLegsAt: -1,
    openLegs: [],
  };
}
