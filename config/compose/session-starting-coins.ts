import {
  coinPriceOf,
  coinsWorth,
  coinValuingSyms,
  type StartingCoinValue,
} from '../../backtest/runner/index.ts';
import { type Dec, decimalOf, type InstrumentSpec, type MarketEvent } from '../../core/model/index.ts';

interface PendingCoin {
  readonly qty: Dec;
  /** The instruments trading the coin against the account currency. */
  readonly syms: ReadonlySet<string>;
}

/**
 * The coins a paper session starts holding besides its cash (`paper.startingCash: { USDT: 100000,
 * ETH: 3 }`), valued as a backtest values them: at the first price the session sees of an
 * instrument trading the coin against the account currency. A paper venue in lockstep has
 * released no price when the session reads its account at the start, so the equity it reports
 * then counts the coins as nothing (see {@link SessionStartingCoins.foundAccount} for one that
 * had), and it reports the account again only when money changes hands (a fill, funding). Until such a report comes after
 * a coin's first price, the coin is added to the session's equity at that price; from then on the
 * venue's equity holds it. The session's start equity (and the first point of its curve) is
 * read once every coin has its price, so the summary's PnL and the return agree with the curve
 * instead of counting the coins' worth as profit.
 */
export class SessionStartingCoins {
  private readonly pending = new Map<string, PendingCoin>();
  private readonly priced: StartingCoinValue[] = [];
  /** The priced coins the venue's equity does not hold yet (no account report since their price). */
  private unreported: StartingCoinValue[] = [];
  private seen = 0;

  /**
   * @param coins - starting balances besides the account currency (none: nothing to value)
   * @param instruments - the session's instruments
   * @param settleAsset - the account currency
   */
  constructor(
    coins: Readonly<Record<string, Dec>>,
    instruments: readonly InstrumentSpec[],
    settleAsset: string,
  ) {
    for (const [coin, qty] of Object.entries(coins)) {
      if (coin === settleAsset || qty.isZero()) continue;
      const syms = coinValuingSyms(coin, instruments, settleAsset);
      // The config check refuses such a coin; none here is valued by no instrument.
      if (syms.size > 0) this.pending.set(coin, { qty, syms });
    }
  }

  /**
   * Takes the venue's account as the session found it. When its equity exceeds the account
   * currency's own, the venue valued the coins already (it had seen their prices: a paper venue
   * replaying without lockstep runs ahead of the session), so its equity holds them and nothing
   * is added: the session then counts no starting coin of its own.
   * @param accountEquity - the account's equity as the venue reported it, if it did
   * @param cashEquity - the account currency's equity as the venue reported it, if it did
   */
  foundAccount(accountEquity: Dec | undefined, cashEquity: Dec | undefined): void {
    if (accountEquity !== undefined && cashEquity !== undefined && accountEquity.gt(cashEquity))
      this.pending.clear();
  }

  /** Whether every starting coin has its first price (true when there are none). */
  get allPriced(): boolean {
    return this.pending.size === 0;
  }

  /** The coins priced so far, with the price and event that valued each. */
  get values(): readonly StartingCoinValue[] {
    return this.priced;
  }

  /** The coins no instrument has given a price yet. @returns their codes */
  unpriced(): string[] {
    return [...this.pending.keys()];
  }

  /**
   * Takes a market event the session received (before any equity is read after it).
   * @param event - the event
   */
  observe(event: MarketEvent): void {
    const position = this.seen++;
    if (this.pending.size === 0) return;
    let price: number | undefined;
    for (const [coin, { qty, syms }] of this.pending) {
      if (!syms.has(event.sym)) continue;
      price ??= coinPriceOf(event);
      if (price === undefined) return;
      const value = { coin, qty, sym: event.sym, price: decimalOf(price), ts: event.recvTs, event: position };
      this.priced.push(value);
      this.unreported.push(value);
      this.pending.delete(coin);
    }
  }

  /** The venue reported the account: its equity now holds every coin priced so far. */
  accountReported(): void {
    this.unreported = [];
  }

  /** @returns what the priced coins the venue's equity does not hold yet are worth, in the account currency */
  unreportedWorth(): Dec {
    return coinsWorth(this.unreported);
  }
}
