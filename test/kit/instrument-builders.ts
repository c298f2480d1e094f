import { D, type InstrumentSpec, parseSym } from '../../core/model/index.ts';

/**
 * Builds an instrument spec with sensible defaults for a USDT-settled perpetual; override any field.
 * @param sym - the symbol (default BINANCE_PERP_BTC_USDT)
 * @param overrides - fields to replace
 * @returns the spec
 */
export function anInstrument(
  sym = 'BINANCE_PERP_BTC_USDT',
  overrides: Partial<InstrumentSpec> = {},
): InstrumentSpec {
  return {
    sym,
    id: parseSym(sym),
    state: 'TRADING',
    pricePrecision: 1,
    qtyPrecision: 3,
    tickSize: D('0.1'),
    lotSize: D('0.001'),
    minSize: D('0.001'),
    minNotional: D('5'),
    maxLimitSize: D('1000'),
    maxMarketSize: D('100'),
    maxNumOrders: 200,
    contractSize: D('1'),
    defaultLeverage: D('10'),
    liquidationFee: D('0.005'),
    settleAsset: 'USDT',
    fees: { maker: D('0.0002'), taker: D('0.0005'), markup: D('0'), fixedPerFill: D('0') },
    ...overrides,
  };
}

/**
 * Builds the ETH/USDT spot instrument the spot and loan tests trade: OKX_SPOT_ETH_USDT, leverage 1,
 * maker 8 bps, taker 10 bps; override any field.
 * @param overrides - fields to replace
 * @returns the spec
 */
export function anEthSpot(overrides: Partial<InstrumentSpec> = {}): InstrumentSpec {
  return anInstrument('OKX_SPOT_ETH_USDT', {
    defaultLeverage: D(1),
    fees: { maker: D('0.0008'), taker: D('0.001'), markup: D('0'), fixedPerFill: D('0') },
    ...overrides,
  });
}

/**
 * An instrument lookup over a fixed list of specs.
 * @param specs - the known instruments
 * @returns a function from sym to spec (undefined when unknown)
 */
export function instrumentLookup(...specs: InstrumentSpec[]): (sym: string) => InstrumentSpec | undefined {
  const bySym = new Map(specs.map((spec) => [spec.sym, spec]));
  return (sym) => bySym.get(sym);
}
