import type { Dec } from '../../core/model/index.ts';
import { decimalOf, ZERO } from '../../core/model/index.ts';
import { fillFee } from './fee-model.ts';
import { markPriceOf } from './market-state.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';
import { isAssetSettled, tradedCoins, tradesSpot } from './spot-holdings.ts';

/*
 * The balance check of spot orders (asset-settled instruments, see `spot-holdings.ts`), which
 * replaces the margin check for them. Keel's choice, as cash accounts and the exchanges' spot
 * wallets do: an open spot order freezes what it pays with, a SELL the base quantity it sells, a
 * BUY the quote it costs (qty x its limit price, a market order at the mark); an order is refused
 * (401023, the venue's code for an order the portfolio cannot fund, per public venue docs) when
 * the coin's balance less what the other open spot orders freeze is smaller than what it pays,
 * plus for a BUY the taker fee of its remainder (at placement, as the margin check counts it).
 * Checked where the margin check is: at placement, at the fill price when the order had none, when
 * an algo order fires and when a modify would make it pay more; and on the market closes of a
 * close-position command, before it sends them (`closeRefusal`). The fee of a resting order is not
 * frozen, and a market BUY filling beyond the mark may overrun the quote balance by its slippage.
 */

/** Why a spot order failed the balance check, in the coin it pays with (a `MarginRefusal` of `margin-check.ts`). */
export interface BalanceRefusal {
  /** What the order pays, plus for a BUY the taker fee of its remainder. */
  readonly needed: Dec;
  /** The fee part of `needed`. */
  readonly fee: Dec;
  /** The coin's balance less what the other open spot orders freeze. */
  readonly available: Dec;
  /** The coin it pays with. */
  readonly coin: string;
  /** What the user should know, appended to the refusal's detail. */
  readonly note: string;
}

/**
 * What the balance check reads of an order: its sym and side, its quantity left (`qty - filled`)
 * and its limit price (0 for a market order, which pays at the mark).
 */
export type PayingOrder = Pick<SimOrder, 'sym' | 'side' | 'qty' | 'filled' | 'price'>;

/** What a live spot order freezes now: the coin it pays with and how much of it. */
function frozenBy(
  state: SimState,
  order: PayingOrder,
): { readonly coin: string; readonly amount: Dec } | undefined {
  const spec = state.opts.instruments.get(order.sym);
  if (spec === undefined || !isAssetSettled(spec)) return undefined;
  const { base, quote } = tradedCoins(spec);
  const units = order.qty.minus(order.filled).mul(spec.contractSize);
  if (order.side === 'SELL') return { coin: base, amount: units };
  return { coin: quote, amount: units.mul(priceOf(state, order)) };
}

/** Limit price, or the mark for a market order (0 while its sym has no price). */
function priceOf(state: SimState, order: PayingOrder): Dec {
  if (!order.price.isZero()) return order.price;
  const market = state.markets.get(order.sym);
  const mark = market ? markPriceOf(market) : Number.NaN;
  return Number.isNaN(mark) ? ZERO : decimalOf(mark);
}

/**
 * How much of a coin the open spot orders freeze: the base quantity of their SELL orders, the quote
 * cost of their BUY orders (see the model above).
 * @param state - the venue
 * @param coin - the coin
 * @param exceptOrderId - an order to leave out (the one being checked)
 * @param cancelled - orders to leave out as well: those about to be cancelled
 * @returns the frozen amount of the coin, 0 when no spot order pays with it
 */
export function frozenBySpotOrders(
  state: SimState,
  coin: string,
  exceptOrderId?: string,
  cancelled?: ReadonlySet<SimOrder>,
): Dec {
  let frozen = ZERO;
  if (!tradesSpot(state)) return frozen;
  for (const order of state.liveOrders) {
    if (order.orderId === exceptOrderId || cancelled?.has(order)) continue;
    const part = frozenBy(state, order);
    if (part !== undefined && part.coin === coin) frozen = frozen.plus(part.amount);
  }
  return frozen;
}

/**
 * What a spot order freezes of the coin it pays with (its base quantity for a SELL, its quote cost
 * for a BUY), for comparing an order before and after a modify.
 * @param state - the venue
 * @param order - an order on an asset-settled sym
 * @returns the amount, in that coin
 */
export function spotReservation(state: SimState, order: SimOrder): Dec {
  return frozenBy(state, order)?.amount ?? ZERO;
}

/**
 * What an order pays: its reservation, plus for a BUY paying the settle coin the taker fee of its
 * remainder, as the margin check counts it.
 */
function paymentOf(
  state: SimState,
  order: PayingOrder,
  pays: { readonly coin: string; readonly amount: Dec },
): { readonly needed: Dec; readonly fee: Dec } | undefined {
  const spec = state.opts.instruments.get(order.sym);
  if (spec === undefined) return undefined;
  const fee =
    order.side === 'BUY' && spec.settleAsset === pays.coin
      ? fillFee(spec.fees, 'TAKER', pays.amount, state.feeMarkup, order.filled.isZero()).fee
      : ZERO;
  return { needed: pays.amount.plus(fee), fee };
}

/** What an order pays ({@link paymentOf}) against what is available: the balance less `frozenElsewhere`. */
function shortfall(
  state: SimState,
  order: PayingOrder,
  pays: { readonly coin: string },
  { needed, fee }: { readonly needed: Dec; readonly fee: Dec },
  frozenElsewhere: Dec,
): BalanceRefusal | undefined {
  const available = (state.balances.get(pays.coin) ?? ZERO).minus(frozenElsewhere);
  if (!available.lt(needed)) return undefined;
  const note =
    order.side === 'SELL'
      ? `a spot SELL pays with the ${pays.coin} it sells (to sell short, borrow ${pays.coin} first)`
      : `a spot BUY pays with ${pays.coin}`;
  return { needed, fee, available, coin: pays.coin, note };
}

/**
 * The balance check of an order on an asset-settled sym (see the model above).
 * @param state - the venue
 * @param order - the order (registered or not: one with its orderId among the live orders is left out)
 * @returns what it needed and what was available, in the coin it pays with, when it does not fit;
 *   undefined when it does or the sym is not asset-settled
 */
export function spotRefusal(state: SimState, order: SimOrder): BalanceRefusal | undefined {
  const pays = frozenBy(state, order);
  if (pays === undefined || !pays.amount.gt(0)) return undefined;
  const payment = paymentOf(state, order, pays);
  if (payment === undefined) return undefined;
  return shortfall(state, order, pays, payment, frozenBySpotOrders(state, pays.coin, order.orderId));
}

/**
 * The balance check of the market closes one close-position command sends (`close-positions.ts`),
 * made before the command cancels or sends anything. A close pays with an asset as any spot order
 * does: the closes are checked as if placed together, in the command's order, each against the
 * balance of the coin it pays with less what the open spot orders the command leaves in place
 * freeze (not its reduce-only orders, which it cancels first) and less what the closes before it
 * pay. What a close receives does not count for the next one, as an open BUY's coins do not count
 * for a SELL placed beside it: they are not there until it fills.
 * @param state - the venue
 * @param closes - the close orders, in the order the command sends them
 * @param cancelled - the reduce-only orders the command cancels first
 * @returns the first close that does not fit, with what it needed and what was available; undefined
 *   when every close fits (a close on a margin sym always does: it only reduces)
 */
export function closeRefusal(
  state: SimState,
  closes: readonly PayingOrder[],
  cancelled: ReadonlySet<SimOrder>,
): { readonly sym: string; readonly refusal: BalanceRefusal } | undefined {
  if (!tradesSpot(state)) return undefined;
  const paidBefore = new Map<string, Dec>();
  for (const close of closes) {
    const pays = frozenBy(state, close);
    if (pays === undefined || !pays.amount.gt(0)) continue;
    const payment = paymentOf(state, close, pays);
    if (payment === undefined) continue;
    const before = paidBefore.get(pays.coin) ?? ZERO;
    const frozen = frozenBySpotOrders(state, pays.coin, undefined, cancelled).plus(before);
    const refusal = shortfall(state, close, pays, payment, frozen);
    if (refusal !== undefined) {
      const note =
        close.side === 'SELL'
          ? `the ${close.sym} holding counts that sym's trades, the ${pays.coin} balance what the account ` +
            `holds (other syms, BOTH-mode legs and open orders share it)`
          : refusal.note;
      return { sym: close.sym, refusal: { ...refusal, note } };
    }
    // Its fee too: the next close pays from what this one leaves.
    paidBefore.set(pays.coin, before.plus(payment.needed));
  }
  return undefined;
}
