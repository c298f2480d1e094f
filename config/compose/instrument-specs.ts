import { SYNTHETIC_INSTRUMENTS } from '../../backtest/synthetic/index.ts';
import type { InstrumentSpec } from '../../core/model/index.ts';
import type { InstrumentConfig, InstrumentOverrides } from '../schema/index.ts';

/**
 * Applies a config's spec overrides to an instrument spec.
 * @param base - the spec
 * @param overrides - the config's overrides (fee rates included)
 * @returns the spec with the overrides
 */
export function withOverrides(base: InstrumentSpec, overrides: InstrumentOverrides): InstrumentSpec {
  const { makerFee, takerFee, fixedFeePerFill, ...fields } = overrides;
  return {
    ...base,
    ...fields,
    fees: {
      ...base.fees,
      ...(makerFee === undefined ? {} : { maker: makerFee }),
      ...(takerFee === undefined ? {} : { taker: takerFee }),
      ...(fixedFeePerFill === undefined ? {} : { fixedPerFill: fixedFeePerFill }),
    },
  };
}

/**
 * The instrument specs of a run: Keel's SYNTHETIC spec of each configured sym (the syms the
 * synthetic generator and the shipped sessions use), with the config's overrides applied. A sym
 * without a built-in spec is refused with a sentence saying what to do; loading specs from the
 * venue's symbol info is for live runs (`venueInstrumentSpecs`).
 * @param instruments - the config's instruments
 * @returns one spec per instrument, in config order
 * @throws Error naming the sym that has no built-in spec
 */
export function instrumentSpecsOf(instruments: readonly InstrumentConfig[]): InstrumentSpec[] {
  return instruments.map(({ sym, overrides }) => {
    const base = SYNTHETIC_INSTRUMENTS[sym];
    if (base === undefined) {
      throw new Error(
        `instrument ${sym} has no built-in spec (built-in: ${Object.keys(SYNTHETIC_INSTRUMENTS).join(', ')}); ` +
          'backtests and paper runs take specs from this table, live runs from the venue',
      );
    }
    return withOverrides(base, overrides);
  });
}
