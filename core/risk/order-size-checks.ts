import type { Dec, Intent } from '../model/index.ts';
import { isOnStep } from '../model/index.ts';
import { notionalOf, type OrderTerms, sizeKnown, termsWithSpecOf } from './order-terms.ts';
import { deny, type RiskCheck } from './risk-check.ts';

/** Every price an intent carries, with its field name; zero prices ("market") are left out. */
function pricesOf(intent: Intent): readonly (readonly [string, Dec | undefined])[] {
  switch (intent.kind) {
    case 'placeOrder':
      return [
        ['price', intent.price],
        ['tp.triggerPrice', intent.tp?.triggerPrice],
        ['tp.price', intent.tp?.price],
        ['sl.triggerPrice', intent.sl?.triggerPrice],
        ['sl.price', intent.sl?.price],
        ['condition.triggerPrice', intent.condition?.triggerPrice],
        ['condition.stopPrice', intent.condition?.stopPrice],
      ];
    case 'placeAlgoOrder':
      return [
        ['triggerPrice', intent.triggerPrice],
        ['price', intent.price],
      ];
    case 'modifyOrder':
      return [['price', intent.price]];
    case 'replaceAlgoOrder':
      return [
        ['triggerPrice', intent.triggerPrice],
        ['price', intent.price],
      ];
    default:
      return [];
  }
}

function qtyOf(intent: Intent): Dec | undefined {
  switch (intent.kind) {
    case 'placeOrder':
    case 'placeAlgoOrder':
    case 'modifyOrder':
    case 'replaceAlgoOrder':
      return intent.qty;
    default:
      return undefined;
  }
}

/** The size as a denial states it; a quote-sized order's qty is an estimate and says so. */
function sizeText(terms: OrderTerms): string {
  return terms.quoteQty === undefined
    ? `qty ${terms.qty.toFixed()}`
    : `qty ~${terms.qty.toDecimalPlaces(8).toFixed()} (quoteOrderQty ${terms.quoteQty.toFixed()} at the reference price)`;
}

function symOf(intent: Intent): string | undefined {
  return 'sym' in intent ? intent.sym : undefined;
}

/** Every price of the intent lies on the instrument's tick size. */
export const priceOnTickCheck: RiskCheck = {
  name: 'priceOnTick',
  kind: 'rule',
  run({ intent, view }) {
    const sym = symOf(intent);
    const spec = sym === undefined ? undefined : view.instrument(sym);
    if (spec === undefined) return undefined;
    for (const [field, price] of pricesOf(intent)) {
      if (price !== undefined && !price.isZero() && !isOnStep(price, spec.tickSize)) {
        return deny(
          'priceOnTick',
          `${intent.kind} ${intent.ref}: ${field} ${price.toFixed()} is not a multiple of ${spec.sym}'s tick size ${spec.tickSize.toFixed()}`,
        );
      }
    }
    return undefined;
  },
};

/** The quantity lies on the instrument's lot size. */
export const qtyOnLotCheck: RiskCheck = {
  name: 'qtyOnLot',
  kind: 'rule',
  run({ intent, view }) {
    const sym = symOf(intent);
    const qty = qtyOf(intent);
    const spec = sym === undefined ? undefined : view.instrument(sym);
    if (spec === undefined || qty === undefined || isOnStep(qty, spec.lotSize)) return undefined;
    return deny(
      'qtyOnLot',
      `${intent.kind} ${intent.ref}: qty ${qty.toFixed()} is not a multiple of ${spec.sym}'s lot size ${spec.lotSize.toFixed()}`,
    );
  },
};

/**
 * The order quantity is at least the instrument's minSize (and positive). A quote-sized market
 * order (quoteOrderQty, qty 0) is sized as quoteOrderQty / (contractSize * reference price).
 */
export const minSizeCheck: RiskCheck = {
  name: 'minSize',
  kind: 'rule',
  run(input) {
    const { intent } = input;
    const found = termsWithSpecOf(input);
    // A quote-sized order with no reference price has no size to compare yet: the venue judges.
    if (found === undefined || !sizeKnown(found.terms)) return undefined;
    const { terms, spec } = found;
    if (terms.qty.gt(0) && terms.qty.greaterThanOrEqualTo(spec.minSize)) return undefined;
    return deny(
      'minSize',
      `${intent.kind} ${intent.ref}: ${sizeText(terms)} is below ${spec.sym}'s minSize ${spec.minSize.toFixed()}`,
    );
  },
};

/** The order quantity is at most maxLimitSize (limit orders) or maxMarketSize (market orders). */
export const maxSizeCheck: RiskCheck = {
  name: 'maxSize',
  kind: 'rule',
  run(input) {
    const { intent } = input;
    const found = termsWithSpecOf(input);
    if (found === undefined) return undefined;
    const { terms, spec } = found;
    const [field, max] =
      terms.orderType === 'MARKET'
        ? ['maxMarketSize', spec.maxMarketSize]
        : ['maxLimitSize', spec.maxLimitSize];
    if (terms.qty.lessThanOrEqualTo(max)) return undefined;
    return deny(
      'maxSize',
      `${intent.kind} ${intent.ref}: ${sizeText(terms)} is above ${spec.sym}'s ${field} ${max.toFixed()}`,
    );
  },
};

/**
 * The order's notional (qty * contractSize * price) is at least the instrument's minNotional.
 * A market order is valued at the reference price; with none known the venue is left to judge.
 * A quote-sized market order's notional is its quoteOrderQty.
 */
export const minNotionalCheck: RiskCheck = {
  name: 'minNotional',
  kind: 'rule',
  run(input) {
    const { intent } = input;
    const found = termsWithSpecOf(input);
    if (found === undefined) return undefined;
    const { terms, spec } = found;
    const notional = notionalOf(input, terms, spec);
    if (notional === undefined || notional.greaterThanOrEqualTo(spec.minNotional)) return undefined;
    return deny(
      'minNotional',
      `${intent.kind} ${intent.ref}: notional ${notional.toFixed()} is below ${spec.sym}'s minNotional ${spec.minNotional.toFixed()}`,
    );
  },
};
