import type { Dec, InstrumentSpec } from '../../core/model/index.ts';
import { D } from '../../core/model/index.ts';

/** A flat commission: a rate of notional, a fixed amount per fill, a fixed amount per order. */
export interface FlatCommission {
  /** Rate of notional (0.001 = 10 bps), charged to makers and takers alike. */
  readonly rate?: Dec;
  /** Fixed amount on every fill. */
  readonly fixedPerFill?: Dec;
  /** Fixed amount once per order, on its first fill, however many fills it takes. */
  readonly fixedPerOrder?: Dec;
}

/**
 * An instrument whose fee schedule is replaced by a flat commission (rate of notional and/or a
 * fixed amount per fill or per order), the way bar-backtest users set `commission`.
 * @param spec - the instrument
 * @param commission - the commission
 * @returns the instrument with the new fee schedule (its markup kept)
 */
export function withCommission(spec: InstrumentSpec, commission: FlatCommission): InstrumentSpec {
  const rate = commission.rate ?? D(0);
  return {
    ...spec,
    fees: {
      maker: rate,
      taker: rate,
      markup: spec.fees.markup,
      fixedPerFill: commission.fixedPerFill ?? D(0),
      ...(commission.fixedPerOrder === undefined ? {} : { fixedPerOrder: commission.fixedPerOrder }),
    },
  };
}

/**
 * The fixed part of a commission in words, for the report's fee description.
 * @param fees - fixed amounts per fill and per order (absent or zero = none)
 * @returns "" when there is none, else e.g. " plus 1 per fill and 0.35 per order"
 */
export function fixedCommissionText(fees: Pick<FlatCommission, 'fixedPerFill' | 'fixedPerOrder'>): string {
  const parts: string[] = [];
  if (fees.fixedPerFill !== undefined && !fees.fixedPerFill.isZero())
    parts.push(`${fees.fixedPerFill.toFixed()} per fill`);
  if (fees.fixedPerOrder !== undefined && !fees.fixedPerOrder.isZero())
    parts.push(`${fees.fixedPerOrder.toFixed()} per order`);
  return parts.length === 0 ? '' : ` plus ${parts.join(' and ')}`;
}
