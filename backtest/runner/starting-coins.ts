import type { Dec, InstrumentSpec, MarketEvent } from '../../core/model/index.ts';
import { asNumber, decimalOf, ZERO } from '../../core/model/index.ts';
import type { EquitySnapshot } from '../sim/index.ts';

/** A coin the run starts holding besides its cash, valued at its instrument's first price. */
export interface StartingCoinValue {
  readonly coin: string;
  readonly qty: Dec;
  /** The instrument whose first price values it (trading the coin against the account currency). */
  readonly sym: string;
  /** That first price. */
  readonly price: Dec;
  /** Receive time of the event that gave it. */
  readonly ts: number;
  /** Position of that event in the replay (0 for the first): the venue values the coin once it saw it. */
  readonly event: number;
}

/** The starting coins' values, and the batches read ahead to find them (replayed first). */
export interface StartingCoinLookahead {
  readonly values: readonly StartingCoinValue[];
  readonly batches: readonly (readonly MarketEvent[])[];
}

/**
 * Finds the price each starting coin is valued at when the run starts (Keel's choice): the first
 * price the data gives an instrument trading the coin against the account currency, as the
 * simulated venue marks it right after that event: a mark price, a trade's price, a quote's mid
 * (both sides quoted) or a closed bar's close. So the starting equity is the cash plus each coin
 * at that price, and the first sample after that event shows no jump from valuing the coin.
 * Reads ahead in the merged stream only as far as those first prices.
 * @param coins - starting coins besides the cash (none: nothing is read)
 * @param instruments - the run's instruments
 * @param settleAsset - the account currency
 * @param first - the stream's first batch
 * @param next - reads the next batch, undefined at the end
 * @returns each coin's value, and the batches read beyond the first
 * @throws Error naming the coin when no instrument trades it against the account currency, or
 *   when the data gives such an instrument no price
 */
export async function startingCoinValues(
  coins: Readonly<Record<string, Dec>>,
  instruments: readonly InstrumentSpec[],
  settleAsset: string,
  first: readonly MarketEvent[],
  next: () => Promise<readonly MarketEvent[] | undefined>,
): Promise<StartingCoinLookahead> {
  const pending = new Map<string, { qty: Dec; syms: ReadonlySet<string> }>();
  for (const [coin, qty] of Object.entries(coins)) {
    const syms = coinValuingSyms(coin, instruments, settleAsset);
    if (syms.size === 0)
      throw new Error(
        `backtest: the starting cash holds ${qty.toFixed()} ${coin}, but no instrument of the run trades ${coin} against ${settleAsset} to value it`,
      );
    pending.set(coin, { qty, syms });
  }
  const values: StartingCoinValue[] = [];
  const batches: (readonly MarketEvent[])[] = [];
  let batch: readonly MarketEvent[] | undefined = first;
  let position = -1;
  while (pending.size > 0 && batch !== undefined) {
    for (const event of batch) {
      position++;
      const price = coinPriceOf(event);
      if (price === undefined) continue;
      for (const [coin, { qty, syms }] of pending) {
        if (!syms.has(event.sym)) continue;
        values.push({
          coin,
          qty,
          sym: event.sym,
          price: decimalOf(price),
          ts: event.recvTs,
          event: position,
        });
        pending.delete(coin);
      }
      if (pending.size === 0) break;
    }
    if (pending.size === 0) break;
    batch = await next();
    if (batch !== undefined) batches.push(batch);
  }
  const [unpriced] = pending.keys();
  if (unpriced !== undefined)
    throw new Error(
      `backtest: the starting cash holds ${unpriced}, but the recordings give no price of ${[...(pending.get(unpriced)?.syms ?? [])].join(' or ')} to value it`,
    );
  return { values, batches };
}

/**
 * The starting equity: the cash plus each starting coin at its first price.
 * @param cash - starting cash in the account currency
 * @param values - the starting coins' values
 * @returns the equity the run starts from
 */
export function startingEquityOf(cash: Dec, values: readonly StartingCoinValue[]): Dec {
  return cash.plus(coinsWorth(values));
}

/**
 * What coins are worth at the prices they were valued at.
 * @param values - the coins' values
 * @returns the sum of quantity x price, in the account currency
 */
export function coinsWorth(values: readonly StartingCoinValue[]): Dec {
  return values.reduce((sum, value) => sum.plus(value.qty.mul(value.price)), ZERO);
}

/**
 * The instruments a starting coin is valued by: those trading it against the account currency.
 * @param coin - the coin, e.g. ETH
 * @param instruments - the run's instruments
 * @param settleAsset - the account currency
 * @returns their syms (empty when none trades the coin so)
 */
export function coinValuingSyms(
  coin: string,
  instruments: readonly InstrumentSpec[],
  settleAsset: string,
): Set<string> {
  return new Set(
    instruments
      .filter((s) => s.id.kind === 'crypto' && s.id.base === coin && s.id.quote === settleAsset)
      .map((s) => s.sym),
  );
}

/**
 * What the starting coins the venue cannot value yet are worth: those whose first price is not
 * among the events it has seen, at that first price. Added to the venue's equity, this makes the
 * starting equity the cash plus every coin at its first price, and keeps it so (rather than the
 * coins counting zero) while events of other syms come before that price.
 * @param values - the starting coins' values
 * @param seen - how many events the venue has seen
 * @returns the worth in the account currency (zero once every coin has its price)
 */
export function unvaluedCoinWorth(values: readonly StartingCoinValue[], seen: number): Dec {
  let worth = ZERO;
  for (const value of values) if (value.event >= seen) worth = worth.plus(value.qty.mul(value.price));
  return worth;
}

/** Where a run's equity samples are read (the simulated venue's three equity readings). */
export interface EquitySources {
  readonly exact: () => Dec;
  readonly estimate: () => number;
  readonly snapshot: () => EquitySnapshot;
}

/**
 * The venue's equity readings, plus the starting coins it cannot value yet
 * ({@link unvaluedCoinWorth}); the venue's own readings when the run starts with cash alone.
 * @param venue - the simulated venue
 * @param values - the starting coins' values
 * @param seen - how many events the venue has seen so far
 * @returns the readings the equity sampler takes
 */
export function equitySources(
  venue: { equity(): Dec; equityEstimate(): number; equitySnapshot(): EquitySnapshot },
  values: readonly StartingCoinValue[],
  seen: () => number,
): EquitySources {
  if (values.length === 0)
    return {
      exact: () => venue.equity(),
      estimate: () => venue.equityEstimate(),
      snapshot: () => venue.equitySnapshot(),
    };
  return {
    exact: () => venue.equity().plus(unvaluedCoinWorth(values, seen())),
    estimate: () => venue.equityEstimate() + asNumber(unvaluedCoinWorth(values, seen())),
    snapshot: () => {
      const venueEquity = venue.equitySnapshot();
      const worth = unvaluedCoinWorth(values, seen());
      return { exact: () => venueEquity.exact().plus(worth) };
    },
  };
}

/**
 * The price the venue marks a sym at right after the event (as `market-state.ts` folds it): what
 * values a starting coin, in a backtest and in a paper session alike.
 * @param event - a market event
 * @returns its mark price, trade price, mid of a two-sided quote or book, or a closed bar's
 *   close; undefined for an event that gives no price
 */
export function coinPriceOf(event: MarketEvent): number | undefined {
  switch (event.kind) {
    case 'markPrice':
      return event.markPrice;
    case 'trade':
      return event.price;
    case 'quote':
      return event.bid > 0 && event.ask > 0
        ? Number(((event.bid + event.ask) / 2).toPrecision(15))
        : undefined;
    case 'book': {
      const bid = event.bids[0];
      const ask = event.asks[0];
      return bid && ask ? Number(((bid[0] + ask[0]) / 2).toPrecision(15)) : undefined;
    }
    case 'bar':
      return event.closed ? event.close : undefined;
    default:
      return undefined;
  }
}
