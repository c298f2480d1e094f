import type { Dec, InstrumentSpec } from '../../core/model/index.ts';
import { D } from '../../core/model/index.ts';

/**
 * An instrument whose fee schedule is replaced by a flat commission (rate of notional and/or a
 * fixed amount per fill), the way bar-backtest users set `commission`.
 * @param spec - the instrument
 * @param commission - rate (0.001 = 10 bps) charged to makers and takers alike, fixed amount per fill
 * @returns the instrument with the new fee schedule (its markup kept)
 */
export function withCommission(
  spec: InstrumentSpec,
  commission: { readonly rate?: Dec; readonly fixedPerFill?: Dec },
): InstrumentSpec {
  const rate = commission.rate ?? D(0);
  return {
    ...spec,
    fees: {
      maker: rate,
      taker: rate,
      markup: spec.fees.markup,
      fixedPerFill: commission.fixedPerFill ?? D(0),
    },
  };
}
