import { asNumber, D, type Dec } from '../model/index.ts';
import { ORDER_TERMS_INTENTS, termsOf } from './order-terms.ts';
import { deny, type RiskCheck } from './risk-check.ts';

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
 * A limit price stays within `priceBand` (a fraction) of the reference price, so fat-finger
 * prices are denied; a price exactly `priceBand` away passes. With no reference price known the
 * order passes (nothing to compare with). A modify or algo replacement that sets no price passes:
 * its price was judged when set.
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
    if ((intent.kind === 'modifyOrder' || intent.kind === 'replaceAlgoOrder') && intent.price === undefined)
      return undefined;
    const terms = termsOf(input);
    if (terms?.price === undefined) return undefined;
    const reference = view.referencePrice(terms.sym);
    if (reference === undefined || reference <= 0) return undefined;
    const distance = Math.abs(asNumber(terms.price) - reference) / reference;
    if (isWithinBand(terms.price, distance, reference, band)) return undefined;
    return deny(
      'priceBand',
      `${intent.kind} ${intent.ref}: price ${terms.price.toFixed()} is ${(distance * 100).toFixed(2)} % from the reference ${reference}, outside the ${(band * 100).toFixed(2)} % band`,
    );
  },
};

/** How near the band edge a distance computed on doubles is left to the exact comparison. */
const EDGE_ROOM = 1e-9;

/**
 * Whether `price` is at most `band` x `reference` from the reference. Decided on the doubles'
 * distance when it is clearly inside or outside the band (float rounding is some 1e-16 of it);
 * near the edge on Decimals, where doubles would deny a price exactly at it (0.33 from 0.3 is
 * 0.10000000000000009 of it).
 */
function isWithinBand(price: Dec, distance: number, reference: number, band: number): boolean {
  if (Math.abs(distance - band) > EDGE_ROOM) return distance < band;
  const exactReference = D(reference);
  return price.minus(exactReference).abs().lte(exactReference.mul(band));
}
