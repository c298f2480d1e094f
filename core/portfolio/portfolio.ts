import type { Dec, Execution, InstrumentSpec, PositionSide } from '../model/index.ts';
import { decimalOf, ONE, positionKey, ZERO } from '../model/index.ts';
import { type LegEntry, legUnrealized, type PortfolioPosition, positionOfLeg } from './portfolio-position.ts';
import { applyFillToLeg, FLAT_LEG } from './position-leg.ts';
import { settleAssetOf } from './settle-asset.ts';

/** The fields of an execution the portfolio books; an {@link Execution} fits. */
export type PortfolioFill = Pick<
  Execution,
  'sym' | 'side' | 'positionSide' | 'quantity' | 'price' | 'fee' | 'feeCoin'
> & { readonly rebate?: Dec };

/** How the portfolio is set up. */
export interface PortfolioOptions {
  /** Instrument lookup for contract size and settlement asset. */
  readonly instrument: (sym: string) => InstrumentSpec | undefined;
  /** Starting cash per asset, e.g. `{ USDT: D(10000) }`. */
  readonly initialCash?: Readonly<Record<string, Dec>>;
  /** The asset `equity()` reports in when no asset is named; default USDT. */
  readonly currency?: string;
}

/**
 * Positions, cash, PnL and equity, all in Decimal. Positions are kept per sym and positionSide
 * (NONE in NET mode: one signed position; LONG and SHORT legs in BOTH mode).
 *
 * Accounting (linear contracts and spot alike): a fill moves no cash except its fee; reductions
 * realize PnL into cash of the instrument's settlement asset. A spot holding is therefore booked
 * at cost, and equity = cash + unrealized PnL equals quote balance + holdings at mark.
 *
 * Marks arrive as numbers from market data: {@link Portfolio.mark} only stores the number, and
 * unrealized PnL is computed (with `decimalOf`) when asked for, then cached until the next mark
 * or fill, so no Decimal work happens per market event.
 */
export class Portfolio {
  readonly #instrument: (sym: string) => InstrumentSpec | undefined;
  readonly #currency: string;
  readonly #legs = new Map<string, LegEntry>();
  readonly #cash = new Map<string, Dec>();
  readonly #marks = new Map<string, number>();
  readonly #fees = new Map<string, Dec>();
  #version = 0;
  #cachedVersion = -1;
  #cachedUnrealized = new Map<string, Dec>();

  /**
   * @param options - instrument lookup, starting cash and reporting currency
   */
  constructor(options: PortfolioOptions) {
    this.#instrument = options.instrument;
    this.#currency = options.currency ?? 'USDT';
    for (const [asset, amount] of Object.entries(options.initialCash ?? {})) {
      this.#cash.set(asset, amount);
    }
  }

  /**
   * Books one fill: updates the position leg, realizes PnL into the settlement asset's cash,
   * and charges the fee (and credits any rebate) in the fee coin.
   * @param fill - the execution
   * @returns the PnL this fill realized (before fees)
   */
  applyFill(fill: PortfolioFill): Dec {
    const entry = this.#entry(fill.sym, fill.positionSide);
    const { leg, realized } = applyFillToLeg(
      entry.leg,
      fill.side,
      fill.quantity,
      fill.price,
      entry.contractSize,
    );
    entry.leg = leg;
    if (!realized.isZero()) this.#addCash(entry.settleAsset, realized);
    if (!fill.fee.isZero()) {
      this.#addCash(fill.feeCoin, fill.fee.neg());
      this.#fees.set(fill.feeCoin, (this.#fees.get(fill.feeCoin) ?? ZERO).add(fill.fee));
    }
    if (fill.rebate !== undefined && !fill.rebate.isZero()) this.#addCash(fill.feeCoin, fill.rebate);
    this.#version++;
    return realized;
  }

  /**
   * Stores the latest mark price of a sym (a number from market data); no Decimal work here.
   * @param sym - the symbol
   * @param price - mark, last trade or mid price
   */
  mark(sym: string, price: number): void {
    if (this.#marks.get(sym) !== price) {
      this.#marks.set(sym, price);
      this.#version++;
    }
  }

  /**
   * Moves cash that is not a fill: funding, interest, transfers, liquidation fees.
   * @param asset - the coin
   * @param amount - signed amount, positive = credit
   */
  adjustCash(asset: string, amount: Dec): void {
    this.#addCash(asset, amount);
    this.#version++;
  }

  /**
   * Cash of one asset.
   * @param asset - the coin; default the reporting currency
   * @returns the balance, zero when never touched
   */
  cash(asset: string = this.#currency): Dec {
    return this.#cash.get(asset) ?? ZERO;
  }

  /**
   * Unrealized PnL of every position settled in an asset, at the last marks.
   * @param asset - the settlement coin; default the reporting currency
   * @returns the sum, zero when nothing is open or marked
   */
  unrealizedPnl(asset: string = this.#currency): Dec {
    return this.#unrealizedByAsset().get(asset) ?? ZERO;
  }

  /**
   * Equity of one asset: cash + unrealized PnL of the positions settled in it.
   * @param asset - the coin; default the reporting currency
   * @returns the equity
   */
  equity(asset: string = this.#currency): Dec {
    return this.cash(asset).add(this.unrealizedPnl(asset));
  }

  /**
   * Realized PnL over all positions settled in an asset, before fees.
   * @param asset - the settlement coin; default the reporting currency
   * @returns the sum
   */
  realizedPnl(asset: string = this.#currency): Dec {
    let total = ZERO;
    for (const entry of this.#legs.values()) {
      if (entry.settleAsset === asset) total = total.add(entry.leg.realizedPnl);
    }
    return total;
  }

  /**
   * Fees paid in one coin (net of nothing: rebates are credited to cash, not subtracted here).
   * @param asset - the fee coin; default the reporting currency
   * @returns total fees
   */
  fees(asset: string = this.#currency): Dec {
    return this.#fees.get(asset) ?? ZERO;
  }

  /**
   * Gross exposure: sum of |qty| * contractSize * mark over open positions settled in an asset.
   * Positions never marked count at their average price.
   * @param asset - the settlement coin; default the reporting currency
   * @returns the exposure
   */
  grossExposure(asset: string = this.#currency): Dec {
    let total = ZERO;
    for (const entry of this.#legs.values()) {
      if (entry.settleAsset !== asset || entry.leg.qty.isZero()) continue;
      const mark = this.#marks.get(entry.sym);
      const price = mark === undefined ? entry.leg.avgPrice : decimalOf(mark);
      total = total.add(entry.leg.qty.abs().mul(entry.contractSize).mul(price));
    }
    return total;
  }

  /**
   * One position leg.
   * @param sym - the symbol
   * @param positionSide - NONE (NET mode), LONG or SHORT (BOTH mode)
   * @returns the position, flat when never traded
   */
  position(sym: string, positionSide: PositionSide = 'NONE'): PortfolioPosition {
    const entry = this.#legs.get(positionKey(sym, positionSide));
    if (entry === undefined) {
      return {
        sym,
        positionSide,
        ...FLAT_LEG,
        unrealizedPnl: ZERO,
        markPrice: this.#marks.get(sym),
        settleAsset: settleAssetOf(this.#instrument, sym, this.#currency),
      };
    }
    return positionOfLeg(entry, this.#marks.get(entry.sym));
  }

  /**
   * Syms with an open position on any leg: the syms worth marking before asking for equity.
   * Cheap (no Decimal arithmetic), unlike {@link Portfolio.positions}.
   * @returns the syms, in first-trade order, each once
   */
  heldSyms(): readonly string[] {
    const syms = new Set<string>();
    for (const entry of this.#legs.values()) if (!entry.leg.qty.isZero()) syms.add(entry.sym);
    return [...syms];
  }

  /**
   * Every leg ever traded, open or flat, in first-trade order.
   * @returns the positions
   */
  positions(): readonly PortfolioPosition[] {
    return [...this.#legs.values()].map((entry) => positionOfLeg(entry, this.#marks.get(entry.sym)));
  }

  #unrealizedByAsset(): Map<string, Dec> {
    if (this.#cachedVersion === this.#version) return this.#cachedUnrealized;
    const sums = new Map<string, Dec>();
    for (const entry of this.#legs.values()) {
      const upnl = legUnrealized(entry, this.#marks.get(entry.sym));
      if (!upnl.isZero()) sums.set(entry.settleAsset, (sums.get(entry.settleAsset) ?? ZERO).add(upnl));
    }
    this.#cachedUnrealized = sums;
    this.#cachedVersion = this.#version;
    return sums;
  }

  #entry(sym: string, positionSide: PositionSide): LegEntry {
    const key = positionKey(sym, positionSide);
    let entry = this.#legs.get(key);
    if (entry === undefined) {
      const spec = this.#instrument(sym);
      entry = {
        sym,
        positionSide,
        contractSize: spec?.contractSize ?? ONE,
        settleAsset: spec?.settleAsset ?? settleAssetOf(this.#instrument, sym, this.#currency),
        leg: FLAT_LEG,
      };
      this.#legs.set(key, entry);
    }
    return entry;
  }

  #addCash(asset: string, amount: Dec): void {
    this.#cash.set(asset, (this.#cash.get(asset) ?? ZERO).add(amount));
  }
}
