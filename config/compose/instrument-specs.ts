import { fixedCommissionText } from '../../backtest/runner/index.ts';
import { simLeverageOf, simTakesLeverage } from '../../backtest/sim/index.ts';
import { SYNTHETIC_INSTRUMENTS } from '../../backtest/synthetic/index.ts';
import { D, type Dec, type InstrumentSpec, isPerpetual, parseSym, ZERO } from '../../core/model/index.ts';
import type { ConfigSource } from '../loader/index.ts';
import {
  type InstrumentConfig,
  type InstrumentOverrides,
  type KeelConfig,
  missingSpecFields,
} from '../schema/index.ts';

/**
 * Applies a config's spec overrides to an instrument spec. A tickSize (lotSize) override brings
 * its own number of decimal places as pricePrecision (qtyPrecision), which the paper venue serves
 * in its symbol info, unless the precision is overridden too.
 * @param base - the spec
 * @param overrides - the config's overrides (fee rates included)
 * @returns the spec with the overrides
 */
export function withOverrides(base: InstrumentSpec, overrides: InstrumentOverrides): InstrumentSpec {
  const { makerFee, takerFee, fixedFeePerFill, fixedFeePerOrder, ...fields } = overrides;
  return {
    ...base,
    ...(fields.tickSize === undefined ? {} : { pricePrecision: fields.tickSize.decimalPlaces() }),
    ...(fields.lotSize === undefined ? {} : { qtyPrecision: fields.lotSize.decimalPlaces() }),
    ...fields,
    fees: {
      ...base.fees,
      ...(makerFee === undefined ? {} : { maker: makerFee }),
      ...(takerFee === undefined ? {} : { taker: takerFee }),
      ...(fixedFeePerFill === undefined ? {} : { fixedPerFill: fixedFeePerFill }),
      ...(fixedFeePerOrder === undefined ? {} : { fixedPerOrder: fixedFeePerOrder }),
    },
  };
}

const UNLIMITED = D('1000000000');
const NO_FEES = { maker: ZERO, taker: ZERO, markup: ZERO, fixedPerFill: ZERO };

/**
 * Keel's defaults for an instrument without a built-in spec (Keel's choice): US equities trade
 * in whole shares on a cent tick, settle in USD, without leverage; a crypto instrument takes its
 * tick and lot from the config (see `missingSpecFields`), has its lot as minimum size, settles in
 * its quote asset, and a perpetual takes 20x leverage and a 1.25 % liquidation fee as Keel's
 * synthetic BTC perpetual does. No size caps beyond 10^9, no minimum notional, 200 open orders
 * per sym, and no fees unless the config sets them.
 * @param sym - the sym
 * @param tickSize - the config's tick size (crypto)
 * @param lotSize - the config's lot size (crypto)
 * @returns the spec before the overrides
 */
function defaultSpec(sym: string, tickSize: Dec, lotSize: Dec): InstrumentSpec {
  const id = parseSym(sym);
  const common = {
    sym,
    id,
    state: 'TRADING' as const,
    minNotional: ZERO,
    maxLimitSize: UNLIMITED,
    maxMarketSize: UNLIMITED,
    maxNumOrders: 200,
    contractSize: D(1),
    fees: NO_FEES,
  };
  if (id.kind === 'equity') {
    return {
      ...common,
      pricePrecision: 2,
      qtyPrecision: 0,
      tickSize: D('0.01'),
      lotSize: D(1),
      minSize: D(1),
      defaultLeverage: D(1),
      liquidationFee: ZERO,
      settleAsset: 'USD',
    };
  }
  const perp = isPerpetual(id);
  return {
    ...common,
    pricePrecision: tickSize.decimalPlaces(),
    qtyPrecision: lotSize.decimalPlaces(),
    tickSize,
    lotSize,
    minSize: lotSize,
    defaultLeverage: D(perp ? 20 : 1),
    liquidationFee: perp ? D('0.0125') : ZERO,
    settleAsset: id.quote,
  };
}

/**
 * The instrument specs of a run: Keel's SYNTHETIC spec of each configured sym that has one (the
 * syms the synthetic generator and the shipped sessions use), else Keel's defaults for the sym's
 * kind (see {@link defaultedSpecNotes}), with the config's overrides applied. Loading specs from
 * the venue's symbol info is for live runs (`venueInstrumentSpecs`).
 * @param instruments - the config's instruments
 * @returns one spec per instrument, in config order
 * @throws Error naming the sym and what its config entry must add (`missingSpecFields`), for a
 *   crypto sym with neither a built-in spec nor a tick and lot size
 */
export function instrumentSpecsOf(instruments: readonly InstrumentConfig[]): InstrumentSpec[] {
  return instruments.map((instrument) => {
    const { sym, overrides } = instrument;
    const builtIn = SYNTHETIC_INSTRUMENTS[sym];
    if (builtIn !== undefined) return withOverrides(builtIn, overrides);
    const missing = missingSpecFields(instrument);
    if (missing !== undefined) throw new Error(`instrument ${missing}`);
    return withOverrides(defaultSpec(sym, overrides.tickSize ?? ZERO, overrides.lotSize ?? ZERO), overrides);
  });
}

/**
 * One sentence per `defaultLeverage` override on an instrument that trades without leverage (a US
 * equity or crypto SPOT): backtests and paper runs trade it at 1x whatever the override says.
 * @param config - a validated config
 * @param source - where its values were written
 * @returns the warnings, in instrument order, each with where the override was written
 */
export function ignoredLeverageWarnings(config: KeelConfig, source: ConfigSource): string[] {
  return config.instruments.flatMap(({ sym, overrides }, index) => {
    if (overrides.defaultLeverage === undefined) return [];
    const id = parseSym(sym);
    if (simTakesLeverage(id)) return [];
    const kind = id.kind === 'equity' ? 'a US equity' : `crypto ${id.businessType}`;
    const { where } = source.where(['instruments', index, 'overrides', 'defaultLeverage'], 'key');
    return [
      `instruments[${index}].overrides.defaultLeverage does nothing: ${sym} is ${kind}, which backtests and paper runs trade at 1x (${where})`,
    ];
  });
}

/**
 * One sentence per instrument that took Keel's defaults rather than a built-in spec, for the
 * report's assumptions: the spec it ended with (tick, lot, minimum size, settle asset, the
 * leverage the simulated venue applies, and fees), so a backtest of a user's own data says what
 * it assumed about the market.
 * @param specs - a run's specs, as {@link instrumentSpecsOf} made them
 * @returns the sentences, in spec order; empty when every sym has a built-in spec
 */
export function defaultedSpecNotes(specs: readonly InstrumentSpec[]): string[] {
  return specs
    .filter((spec) => SYNTHETIC_INSTRUMENTS[spec.sym] === undefined)
    .map(
      (spec) =>
        `${spec.sym} has no built-in spec: Keel's defaults for its kind with the config's overrides, ` +
        `tick ${spec.tickSize.toFixed()}, lot ${spec.lotSize.toFixed()}, minimum ${spec.minSize.toFixed()}, ` +
        `settled in ${spec.settleAsset}, leverage ${simLeverageOf(spec).toFixed()}, ` +
        `fees maker ${spec.fees.maker.toFixed()} / taker ${spec.fees.taker.toFixed()} of notional${fixedCommissionText(spec.fees)}.`,
    );
}
