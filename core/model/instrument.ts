import type { Dec } from './decimal.ts';

/** Exchanges the venue routes to (per public venue docs). */
export const EXCHANGE_TYPES = ['BINANCE', 'OKX', 'EDX'] as const;
/** An exchange the venue routes to. */
export type ExchangeType = (typeof EXCHANGE_TYPES)[number];

/** Business lines of a crypto symbol (per public venue docs). */
export const BUSINESS_TYPES = ['SPOT', 'MARGIN', 'PERP'] as const;
/** Business line of a crypto symbol: spot, margin or perpetual. */
export type BusinessType = (typeof BUSINESS_TYPES)[number];

/** A crypto instrument in the venue's `{EXCHANGE}_{BUSINESS}_{BASE}_{QUOTE}` form. */
export interface CryptoInstrumentId {
  readonly kind: 'crypto';
  readonly exchangeType: ExchangeType;
  readonly businessType: BusinessType;
  readonly base: string;
  readonly quote: string;
}

/**
 * A US equity of the spec's PLACE_ORDER message (exchangeCode US + productCode). Keel writes it
 * as the sym `US_EQUITY_{productCode}` (Keel's own convention: the spec gives no sym for equities).
 */
export interface EquityInstrumentId {
  readonly kind: 'equity';
  readonly exchangeCode: 'US';
  readonly productCode: string;
}

/** Any instrument Keel can trade. */
export type InstrumentId = CryptoInstrumentId | EquityInstrumentId;

const ASSET = /^[A-Z0-9]{1,20}$/;
const PRODUCT_CODE = /^[A-Z0-9.]{1,12}$/;

/**
 * Parses a sym: `BINANCE_PERP_BTC_USDT`, `OKX_SPOT_ETH_USDT`, or `US_EQUITY_AAPL`.
 * @param sym - the symbol text
 * @returns the instrument id
 * @throws TypeError naming what is wrong when the text is not a known symbol form
 */
export function parseSym(sym: string): InstrumentId {
  const parts = sym.split('_');
  if (parts.length === 3 && parts[0] === 'US' && parts[1] === 'EQUITY' && PRODUCT_CODE.test(parts[2] ?? '')) {
    return { kind: 'equity', exchangeCode: 'US', productCode: parts[2] as string };
  }
  if (parts.length !== 4) {
    throw new TypeError(
      `sym ${JSON.stringify(sym)} is not {EXCHANGE}_{BUSINESS}_{BASE}_{QUOTE} nor US_EQUITY_{CODE}`,
    );
  }
  const [exchange, business, base, quote] = parts as [string, string, string, string];
  if (!(EXCHANGE_TYPES as readonly string[]).includes(exchange)) {
    throw new TypeError(
      `sym ${JSON.stringify(sym)}: unknown exchange ${exchange} (expected ${EXCHANGE_TYPES.join(', ')})`,
    );
  }
  if (!(BUSINESS_TYPES as readonly string[]).includes(business)) {
    throw new TypeError(
      `sym ${JSON.stringify(sym)}: unknown business ${business} (expected ${BUSINESS_TYPES.join(', ')})`,
    );
  }
  if (!ASSET.test(base) || !ASSET.test(quote)) {
    throw new TypeError(`sym ${JSON.stringify(sym)}: base and quote must be upper-case asset codes`);
  }
  return {
    kind: 'crypto',
    exchangeType: exchange as ExchangeType,
    businessType: business as BusinessType,
    base,
    quote,
  };
}

/**
 * Formats an instrument id as its sym.
 * @param id - the instrument
 * @returns `{EXCHANGE}_{BUSINESS}_{BASE}_{QUOTE}` or `US_EQUITY_{CODE}`
 */
export function formatSym(id: InstrumentId): string {
  return id.kind === 'crypto'
    ? `${id.exchangeType}_${id.businessType}_${id.base}_${id.quote}`
    : `US_EQUITY_${id.productCode}`;
}

/**
 * Whether trades of an instrument settle in coins (crypto SPOT and MARGIN: the base coin changes
 * hands, and a short is a borrowed coin sold) rather than open a margin position (perpetuals, US
 * equities).
 * @param id - the instrument's id
 * @returns true for crypto SPOT and MARGIN instruments
 */
export function settlesInCoins(id: InstrumentId): boolean {
  return id.kind === 'crypto' && id.businessType !== 'PERP';
}

/**
 * Whether an instrument is a perpetual (the only kind with mark prices, funding and ADL).
 * @param id - the instrument's id
 * @returns true for crypto PERP instruments
 */
export function isPerpetual(id: InstrumentId): boolean {
  return id.kind === 'crypto' && id.businessType === 'PERP';
}

/** Trading state of a symbol. */
export type SymState = 'TRADING' | 'HALTED' | 'CLOSED';

/** Fee schedule of an instrument, as rates of notional (0.0002 = 2 bps) plus equity commissions. */
export interface FeeSchedule {
  readonly maker: Dec;
  readonly taker: Dec;
  /**
   * The instrument's own markup, added to both rates for every portfolio trading it (part of its
   * fee schedule; precision 0.01 bps = 0.000001). Not the sub-portfolio markup: that one belongs
   * to a portfolio (the broker's sub-portfolio fee rate; the simulated venue's
   * `subPortfolioMarkup`) and is charged on top of this one.
   */
  readonly markup: Dec;
  /** Fixed commission per order fill, in the quote asset (equities). */
  readonly fixedPerFill: Dec;
  /**
   * Fixed commission per order, charged once on its first fill however many fills it takes, in the
   * quote asset (equities; the way most brokers and backtesting.py charge). Absent = none.
   */
  readonly fixedPerOrder?: Dec;
}

/** Instrument specification: the fields of the venue's symbol info plus Keel's fee schedule. */
export interface InstrumentSpec {
  readonly sym: string;
  readonly id: InstrumentId;
  readonly state: SymState;
  readonly pricePrecision: number;
  readonly qtyPrecision: number;
  readonly tickSize: Dec;
  readonly lotSize: Dec;
  readonly minSize: Dec;
  readonly minNotional: Dec;
  readonly maxLimitSize: Dec;
  readonly maxMarketSize: Dec;
  readonly maxNumOrders: number;
  /** Units of base per contract (1 for spot and equities). */
  readonly contractSize: Dec;
  readonly defaultLeverage: Dec;
  readonly liquidationFee: Dec;
  /** The asset PnL and fees are paid in. */
  readonly settleAsset: string;
  readonly fees: FeeSchedule;
}
