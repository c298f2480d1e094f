import { asNumber, D, type Dec } from '../model/index.ts';
import { ORDER_TERMS_INTENTS, termsOf } from './order-terms.ts';
import { deny, type RiskCheck } from './risk-check.ts';
import type { Denial } from './risk-decision.ts';

/**
 * A new order or algo order (a trailing stop among the orders) is denied when maxOpenOrders (the
 * portfolio's, or the strategy's own) are already open. Algo orders not triggered yet count (those
 * sent and not answered too): each may put an order on the book when it fires, where the gate no
 * longer sees it; an order's attached take-profit and stop-loss count as one, since only one of
 * them can fire (`RiskView.countOpenAlgoOrders`). The trailing stops Keel holds and has not fired
 * yet count too (`RiskView.countHeldTrailingStops`): each puts an order on the book when it fires.
 */
export const maxOpenOrdersCheck: RiskCheck = {
  name: 'maxOpenOrders',
  kind: 'limit',
  intents: ['placeOrder', 'placeAlgoOrder'],
  enforces: (limits) => limits.maxOpenOrders !== undefined,
  run({ intent, view, limits, scope, strategyId }) {
    const max = limits.maxOpenOrders;
    if (max === undefined || (intent.kind !== 'placeOrder' && intent.kind !== 'placeAlgoOrder'))
      return undefined;
    const owner = scope === 'strategy' ? strategyId : undefined;
    const orders = view.countOpenOrders(owner === undefined ? {} : { strategyId: owner });
    const algos = view.countOpenAlgoOrders(owner);
    const stops = view.countHeldTrailingStops(owner);
    const open = orders + algos + stops;
    if (open < max) return undefined;
    const who = scope === 'portfolio' ? 'the portfolio has' : `strategy ${strategyId} has`;
    const kinds = [
      ...(algos === 0 ? [] : [`algo orders ${algos}`]),
      ...(stops === 0 ? [] : [`trailing stops held by Keel ${stops}`]),
    ];
    const among =
      kinds.length === 0
        ? ''
        : stops === 0
          ? ` (${algos} of them algo orders)`
          : ` (of them: ${kinds.join(', ')})`;
    return deny(
      'maxOpenOrders',
      `${intent.kind === 'placeOrder' ? 'order' : 'algo order'} ${intent.ref}: ${who} ${open} open orders${among}, the limit is ${max}`,
    );
  },
};

/**
 * Prices stay within `priceBand` (a fraction) of what they are judged against, so fat-finger
 * prices are denied; a price exactly `priceBand` away passes. A plain order's limit price, and a
 * modify's new one, is judged against the reference price. The trigger price of an algo order
 * that can add to a position (not reduce-only) is judged against the reference price too; an
 * exit's trigger (a reduce-only algo order's, an order's take-profit or stop-loss) is not: a
 * protective stop 7 % away under a 5 % band is where the strategy wants its loss cut, and a
 * mistyped one can only take risk off. The limit price that goes with a trigger (a stop-limit's,
 * a take-profit-limit's, an attached take-profit's or stop-loss's) is judged against that trigger
 * price, where it goes live, not against today's price, so a stop-limit and the same stop
 * attached to an order get the same verdict. With no reference price known, only the limit prices
 * judged against a trigger are. A modify or algo replacement that sets no price (nor, for a
 * replacement, a trigger) passes: its prices were judged when set; a replacement that sets one is
 * judged with the algo order's other value.
 */
export const priceBandCheck: RiskCheck = {
  name: 'priceBand',
  kind: 'limit',
  intents: ORDER_TERMS_INTENTS,
  enforces: (limits) => limits.priceBand !== undefined,
  run(input) {
    const { intent, view, limits } = input;
    const band = limits.priceBand;
    if (band === undefined) return undefined;
    // A modify or replacement that keeps the price is not judged on it: a price that drifted out
    // of the band while resting must not stop the order from being shrunk.
    if (intent.kind === 'modifyOrder' && intent.price === undefined) return undefined;
    if (intent.kind === 'replaceAlgoOrder' && intent.price === undefined && intent.triggerPrice === undefined)
      return undefined;
    const terms = termsOf(input);
    if (terms === undefined) return undefined;
    const known = view.referencePrice(terms.sym);
    const reference = known === undefined || known <= 0 ? undefined : known;
    const banded = new BandJudge(intent.kind, intent.ref, reference, band);
    switch (intent.kind) {
      case 'placeOrder':
        return (
          (intent.orderType === 'LIMIT' ? banded.againstReference('price', intent.price) : undefined) ??
          (intent.tp === undefined ? undefined : banded.triggered('tp', intent.tp, false)) ??
          (intent.sl === undefined ? undefined : banded.triggered('sl', intent.sl, false))
        );
      case 'modifyOrder':
        return banded.againstReference('price', terms.price);
      case 'placeAlgoOrder':
        return banded.triggered('', intent, !intent.reduceOnly);
      case 'replaceAlgoOrder': {
        const algo = view.algoOrderByRef(intent.target) ?? view.inFlightAlgoOrder(intent.target);
        const trigger = intent.triggerPrice ?? algo?.triggerPrice;
        return (
          (algo?.reduceOnly === true
            ? undefined
            : banded.againstReference('triggerPrice', intent.triggerPrice)) ??
          (trigger === undefined
            ? undefined
            : banded.againstTrigger('price', intent.price ?? algo?.price, trigger))
        );
      }
      default:
        return undefined;
    }
  },
};

/** Judges one intent's prices for {@link priceBandCheck}, each denial naming the price and its anchor. */
class BandJudge {
  constructor(
    private readonly kind: string,
    private readonly ref: string,
    private readonly reference: number | undefined,
    private readonly band: number,
  ) {}

  /** A limit or trigger price against the reference price; passes with no reference. */
  againstReference(name: string, price: Dec | undefined): Denial | undefined {
    if (price === undefined || this.reference === undefined) return undefined;
    return this.judge(name, price, this.reference, undefined, 'the reference');
  }

  /** A limit price against its trigger price; a market one ("0") passes. */
  againstTrigger(name: string, price: Dec | undefined, trigger: Dec): Denial | undefined {
    if (price === undefined || price.isZero() || !trigger.gt(0)) return undefined;
    return this.judge(name, price, asNumber(trigger), trigger, 'its trigger price');
  }

  /**
   * A triggered order's trigger against the reference (when it can add to a position), then its
   * limit price against the trigger.
   */
  triggered(
    leg: string,
    order: { readonly triggerPrice: Dec; readonly price: Dec },
    addsRisk: boolean,
  ): Denial | undefined {
    const prefix = leg === '' ? '' : `${leg} `;
    return (
      (addsRisk ? this.againstReference(`${prefix}triggerPrice`, order.triggerPrice) : undefined) ??
      this.againstTrigger(`${prefix}price`, order.price, order.triggerPrice)
    );
  }

  private judge(
    name: string,
    price: Dec,
    anchor: number,
    exactAnchor: Dec | undefined,
    anchorName: string,
  ): Denial | undefined {
    const distance = Math.abs(asNumber(price) - anchor) / anchor;
    if (isWithinBand(price, distance, anchor, exactAnchor, this.band)) return undefined;
    return deny(
      'priceBand',
      `${this.kind} ${this.ref}: ${name} ${price.toFixed()} is ${(distance * 100).toFixed(2)} % from ${anchorName} ${exactAnchor?.toFixed() ?? anchor}, outside the ${(this.band * 100).toFixed(2)} % band`,
    );
  }
}

/** How near the band edge a distance computed on doubles is left to the exact comparison. */
const EDGE_ROOM = 1e-9;

/**
 * Whether `price` is at most `band` x the anchor from the anchor. Decided on the doubles'
 * distance when it is clearly inside or outside the band (float rounding is some 1e-16 of it);
 * near the edge on Decimals, where doubles would deny a price exactly at it (0.33 from 0.3 is
 * 0.10000000000000009 of it).
 * @param exactAnchor - the anchor as a Decimal when it is one (a trigger price); undefined = `D(anchor)`
 */
function isWithinBand(
  price: Dec,
  distance: number,
  anchor: number,
  exactAnchor: Dec | undefined,
  band: number,
): boolean {
  if (Math.abs(distance - band) > EDGE_ROOM) return distance < band;
  const exact = exactAnchor ?? D(anchor);
  return price.minus(exact).abs().lte(exact.mul(band));
}
