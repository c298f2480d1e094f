import type { Dec, InstrumentSpec, Intent, IntentKind } from '../model/index.ts';
import { asNumber, isAboveZero, isAtLeast, isAtMost, isOnStep } from '../model/index.ts';
import {
  notionalOf,
  ORDER_TERMS_INTENTS,
  type OrderTerms,
  sizeKnown,
  termsWithSpecOf,
} from './order-terms.ts';
import { reducesPosition } from './position-reduction.ts';
import { deny, type RiskCheck } from './risk-check.ts';
import type { Denial } from './risk-decision.ts';
import type { RiskView } from './risk-view.ts';

/**
 * The priceOnTick denial of the intent's first price off the tick size, in the order the fields
 * are listed (price, then the TP/SL legs and the condition's prices), each looked at in turn with
 * no list of them made per intent.
 */
function offTickPriceDenial(intent: Intent, spec: InstrumentSpec): Denial | undefined {
  switch (intent.kind) {
    case 'placeOrder':
      return (
        offTickDenial(intent, 'price', intent.price, spec) ??
        offTickDenial(intent, 'tp.triggerPrice', intent.tp?.triggerPrice, spec) ??
        offTickDenial(intent, 'tp.price', intent.tp?.price, spec) ??
        offTickDenial(intent, 'sl.triggerPrice', intent.sl?.triggerPrice, spec) ??
        offTickDenial(intent, 'sl.price', intent.sl?.price, spec) ??
        offTickDenial(intent, 'condition.triggerPrice', intent.condition?.triggerPrice, spec) ??
        offTickDenial(intent, 'condition.stopPrice', intent.condition?.stopPrice, spec)
      );
    case 'placeAlgoOrder':
    case 'replaceAlgoOrder':
      return (
        offTickDenial(intent, 'triggerPrice', intent.triggerPrice, spec) ??
        offTickDenial(intent, 'price', intent.price, spec)
      );
    default:
      return undefined;
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

/** The intent kinds carrying a price or a quantity ({@link offTickPriceDenial}, {@link qtyOf}). */
const PRICED_INTENTS: readonly IntentKind[] = [
  'placeOrder',
  'placeAlgoOrder',
  'modifyOrder',
  'replaceAlgoOrder',
];

/** Every price of the intent lies on the instrument's tick size. */
export const priceOnTickCheck: RiskCheck = {
  name: 'priceOnTick',
  kind: 'rule',
  intents: PRICED_INTENTS,
  run({ intent, view }) {
    const sym = symOf(intent);
    const spec = sym === undefined ? undefined : view.instrument(sym);
    if (spec === undefined) return undefined;
    if (intent.kind === 'modifyOrder') return offTickDenial(intent, 'price', intent.price, spec);
    return offTickPriceDenial(intent, spec);
  },
};

/** The priceOnTick denial of one price field, when it is set, not zero ("market") and off the tick size. */
function offTickDenial(
  intent: Intent,
  field: string,
  price: Dec | undefined,
  spec: InstrumentSpec,
): Denial | undefined {
  if (price === undefined || price.isZero() || isOnStep(price, spec.tickSize)) return undefined;
  return deny(
    'priceOnTick',
    `${intent.kind} ${intent.ref}: ${field} ${price.toFixed()} is not a multiple of ${spec.sym}'s tick size ${spec.tickSize.toFixed()}`,
  );
}

/**
 * The quantity lies on the instrument's lot size and, on a US equity, is a whole number of shares:
 * the spec's PLACE_ORDER, which paper and live send equity orders with, carries an integer qty, so
 * a fractional lot (a spec not made from a config, which refuses one) would fill in a backtest
 * what the other modes cannot send.
 */
export const qtyOnLotCheck: RiskCheck = {
  name: 'qtyOnLot',
  kind: 'rule',
  intents: PRICED_INTENTS,
  run({ intent, view }) {
    const sym = symOf(intent);
    const qty = qtyOf(intent);
    const spec = sym === undefined ? undefined : view.instrument(sym);
    if (spec === undefined || qty === undefined) return undefined;
    if (!isOnStep(qty, spec.lotSize))
      return deny(
        'qtyOnLot',
        `${intent.kind} ${intent.ref}: qty ${qty.toFixed()} is not a multiple of ${spec.sym}'s lot size ${spec.lotSize.toFixed()}`,
      );
    if (spec.id.kind !== 'equity' || qty.isInteger()) return undefined;
    return deny(
      'qtyOnLot',
      `${intent.kind} ${intent.ref}: qty ${qty.toFixed()} is not a whole number of shares: PLACE_ORDER (US equities) carries whole shares only`,
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
  intents: ORDER_TERMS_INTENTS,
  run(input) {
    const { intent } = input;
    const found = termsWithSpecOf(input);
    // A quote-sized order with no reference price has no size to compare yet: the venue judges.
    if (found === undefined || !sizeKnown(found.terms)) return undefined;
    const { terms, spec } = found;
    if (
      isAboveZero(terms.qty) &&
      isAtLeast(terms.qty, asNumber(terms.qty), spec.minSize, asNumber(spec.minSize))
    )
      return undefined;
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
  intents: ORDER_TERMS_INTENTS,
  run(input) {
    const { intent } = input;
    const found = termsWithSpecOf(input);
    if (found === undefined) return undefined;
    const { terms, spec } = found;
    // No tuple destructuring: it runs the array iterator on every intent.
    const market = terms.orderType === 'MARKET';
    const max = market ? spec.maxMarketSize : spec.maxLimitSize;
    if (isAtMost(terms.qty, asNumber(terms.qty), max, asNumber(max))) return undefined;
    const field = market ? 'maxMarketSize' : 'maxLimitSize';
    return deny(
      'maxSize',
      `${intent.kind} ${intent.ref}: ${sizeText(terms)} is above ${spec.sym}'s ${field} ${max.toFixed()}`,
    );
  },
};

/**
 * The order's notional (qty * contractSize * price) is at least the instrument's minNotional.
 * A market order is valued at the reference price; with none known the venue is left to judge.
 * A quote-sized market order's notional is its quoteOrderQty. A market order that only reduces
 * (reduce-only, or reducing after the resting orders on its side, as the exposure checks count
 * it) passes whatever its notional: the sim (Keel's model of the venue) checks minNotional of
 * limit orders only, and a position whose value fell below minNotional must still be closable. A
 * reducing limit order is still checked, as the sim refuses it.
 */
export const minNotionalCheck: RiskCheck = {
  name: 'minNotional',
  kind: 'rule',
  intents: ORDER_TERMS_INTENTS,
  run(input) {
    const { intent } = input;
    const found = termsWithSpecOf(input);
    if (found === undefined) return undefined;
    const { terms, spec } = found;
    if (clearlyOverMinNotional(terms, spec, input.view)) return undefined;
    const notional = notionalOf(input, terms, spec);
    if (
      notional === undefined ||
      isAtLeast(notional, asNumber(notional), spec.minNotional, asNumber(spec.minNotional)) ||
      (terms.orderType === 'MARKET' && (terms.reduceOnly || reducesPosition(terms, input.view)))
    )
      return undefined;
    return deny(
      'minNotional',
      `${intent.kind} ${intent.ref}: notional ${notional.toFixed()} is below ${spec.sym}'s minNotional ${spec.minNotional.toFixed()}`,
    );
  },
};

/** Relative room left for float rounding when the estimate below decides alone. */
const ESTIMATE_MARGIN = 1e-9;

/** Doubles this far from 0 and 1 keep their relative precision through a product of three. */
function isTame(x: number): boolean {
  const size = Math.abs(x);
  return size > 1e-90 && size < 1e90;
}

/**
 * minNotional on numbers: true when qty * contractSize * price is above the minimum by more than
 * float rounding could account for, so the exact Decimal product (two Decimal multiplies per
 * intent) is needed only near or below it. Each factor converts to the nearest double and each of
 * the two products rounds once, a relative error of a few 2^-53, far inside ESTIMATE_MARGIN; a
 * quote-sized order (its notional is its quote amount) and a market order without a reference
 * price are left to the exact path.
 */
function clearlyOverMinNotional(terms: OrderTerms, spec: InstrumentSpec, view: RiskView): boolean {
  if (terms.quoteQty !== undefined) return false;
  const price = terms.price === undefined ? view.referencePrice(terms.sym) : asNumber(terms.price);
  if (price === undefined) return false;
  const qty = asNumber(terms.qty);
  const contractSize = asNumber(spec.contractSize);
  if (!isTame(price) || !isTame(qty) || !isTame(contractSize)) return false;
  const estimate = qty * contractSize * price;
  const min = asNumber(spec.minNotional);
  return estimate - min > (Math.abs(estimate) + Math.abs(min)) * ESTIMATE_MARGIN;
}
