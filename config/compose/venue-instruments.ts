import { SYNTHETIC_INSTRUMENTS } from '../../backtest/synthetic/index.ts';
import { D, type InstrumentSpec, parseSym, type SymState } from '../../core/model/index.ts';
import type { SymInfoWire, VenueRestClient } from '../../core/venue/index.ts';
import type { InstrumentConfig } from '../schema/index.ts';
import { withOverrides } from './instrument-specs.ts';

const STATES: readonly SymState[] = ['TRADING', 'HALTED', 'CLOSED'];

/**
 * An instrument spec from the venue's symbol info. Fields the symbol info never carries (the fee
 * rates and the settlement asset) and the optional ones a reply leaves out (minSize, minNotional,
 * maxLimitSize, maxMarketSize, maxNumOrders, contractSize, defaultLeverage, liquidationFee) come
 * from Keel's built-in spec of the sym when it has one, else Keel's choice: the lot as minimum
 * size, no minimum notional, sizes up to 10^12, 200 open orders, contract size and leverage 1, no
 * liquidation fee, the quote asset settling (USD for equities) and fees of zero until the
 * config's `overrides` give them.
 * @param info - the venue's symbol info entry
 * @returns the spec
 */
export function specFromSymInfo(info: SymInfoWire): InstrumentSpec {
  const id = parseSym(info.sym);
  const known = SYNTHETIC_INSTRUMENTS[info.sym];
  const zero = D(0);
  const dec = (
    text: string | undefined,
    fallback: InstrumentSpec[keyof InstrumentSpec] | undefined,
    otherwise: string,
  ) => (text !== undefined ? D(text) : ((fallback as ReturnType<typeof D> | undefined) ?? D(otherwise)));
  return {
    sym: info.sym,
    id,
    state: STATES.includes(info.state as SymState) ? (info.state as SymState) : 'HALTED',
    pricePrecision: info.pricePrecision,
    qtyPrecision: info.qtyPrecision,
    tickSize: D(info.tickSize),
    lotSize: D(info.lotSize),
    minSize: dec(info.minSize, known?.minSize, info.lotSize),
    minNotional: dec(info.minNotional, known?.minNotional, '0'),
    maxLimitSize: dec(info.maxLimitSize, known?.maxLimitSize, '1e12'),
    maxMarketSize: dec(info.maxMarketSize, known?.maxMarketSize, '1e12'),
    maxNumOrders: info.maxNumOrders ?? known?.maxNumOrders ?? 200,
    contractSize: dec(info.contractSize, known?.contractSize, '1'),
    defaultLeverage: dec(info.defaultLeverage, known?.defaultLeverage, '1'),
    liquidationFee: dec(info.liquidationFee, known?.liquidationFee, '0'),
    settleAsset: known?.settleAsset ?? (id.kind === 'crypto' ? id.quote : 'USD'),
    fees: known?.fees ?? { maker: zero, taker: zero, markup: zero, fixedPerFill: zero },
  };
}

/**
 * The instrument specs of a live run, from the venue's `GET /api/v1/trading/sym/info`, with
 * the config's overrides applied.
 * @param rest - the venue's REST client
 * @param instruments - the config's instruments
 * @returns one spec per instrument, in config order
 * @throws Error naming a sym the venue does not list
 */
export async function venueInstrumentSpecs(
  rest: VenueRestClient,
  instruments: readonly InstrumentConfig[],
): Promise<InstrumentSpec[]> {
  const specs: InstrumentSpec[] = [];
  for (const { sym, overrides } of instruments) {
    const info = ((await rest.getSymInfo({ sym })) as readonly SymInfoWire[]).find(
      (entry) => entry.sym === sym,
    );
    if (info === undefined)
      throw new Error(`the venue does not list instrument ${sym} (GET /api/v1/trading/sym/info)`);
    specs.push(withOverrides(specFromSymInfo(info), overrides));
  }
  return specs;
}
