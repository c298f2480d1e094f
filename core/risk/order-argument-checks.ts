import { DateTime } from 'luxon';
import type { Dec, Intent, PositionSide } from '../model/index.ts';
import {
  describeUnknownFieldValue,
  isAboveZero,
  US_EQUITY_ZONE,
  unknownFieldValue,
  VENUE_TIMES_IN_FORCE,
} from '../model/index.ts';
import { deny, type RiskCheck } from './risk-check.ts';

/** The venue's clientOrderId length limit (per public venue docs). */
const MAX_CLIENT_ORDER_ID_LENGTH = 40;
const CONDITIONS_NEEDING_TRIGGER = new Set(['UT', 'DT', 'SL', 'OCO']);

/** Denies a new order whose ref (the clientOrderId) is empty or longer than 40 characters. */
export const clientOrderIdCheck: RiskCheck = {
  name: 'clientOrderId',
  kind: 'rule',
  intents: ['placeOrder', 'placeAlgoOrder'],
  run({ intent }) {
    if (intent.kind !== 'placeOrder' && intent.kind !== 'placeAlgoOrder') return undefined;
    if (intent.ref.length === 0 || intent.ref.length > MAX_CLIENT_ORDER_ID_LENGTH) {
      return deny(
        'clientOrderId',
        `ref ${JSON.stringify(intent.ref)} must be 1 to ${MAX_CLIENT_ORDER_ID_LENGTH} characters: it becomes the clientOrderId`,
      );
    }
    return undefined;
  },
};

/**
 * Denies an intent with a field outside the values the venue takes: a side, order type, time in
 * force, position side, trigger type, condition code, algo order or condition type, position mode
 * or trailing stop setting the types allow not (`buy`, `gtc`, `long`: a JavaScript plugin or a
 * YAML param gets past them). A venue answers such an order 400001; the sim would misread it (any
 * side but BUY as a sell), so every venue is spared it alike. The reason names the field and its values.
 */
export const fieldValuesCheck: RiskCheck = {
  name: 'fieldValues',
  kind: 'rule',
  intents: ['placeOrder', 'placeAlgoOrder', 'closePosition', 'setPositionMode'],
  run({ intent }) {
    const problem = unknownFieldValue(intent);
    return problem === undefined
      ? undefined
      : deny('fieldValues', `${intent.kind} ${intent.ref}: ${describeUnknownFieldValue(problem)}`);
  },
};

/** Whether an amount is a positive number: not zero, negative, NaN or infinite. */
function isPositiveNumber(value: Dec): boolean {
  return value.isFinite() && isAboveZero(value);
}

/** Whether a price that may be "0" (a market order on trigger) is zero or a positive number. */
function isZeroOrPositive(value: Dec): boolean {
  return value.isZero() || isPositiveNumber(value);
}

/**
 * The first price of an intent's trigger or conditional terms that is not a positive number (or,
 * for a price where "0" means market, zero or positive): an algo order's triggerPrice and price,
 * a replacement's, an order's take-profit and stop-loss trigger and price (a conditional order's
 * are conditionArguments').
 * @returns what is wrong, or undefined when every such price is fine
 */
function triggerPriceProblem(intent: Intent): string | undefined {
  const prices: [string, Dec | undefined, boolean][] = [];
  switch (intent.kind) {
    case 'placeAlgoOrder':
    case 'replaceAlgoOrder':
      prices.push(['triggerPrice', intent.triggerPrice, false], ['price', intent.price, true]);
      break;
    case 'placeOrder':
      for (const [name, leg] of [
        ['tp', intent.tp],
        ['sl', intent.sl],
      ] as const)
        if (leg !== undefined)
          prices.push([`${name} triggerPrice`, leg.triggerPrice, false], [`${name} price`, leg.price, true]);
      break;
    default:
      return undefined;
  }
  for (const [name, price, market] of prices) {
    if (price === undefined || (market ? isZeroOrPositive(price) : isPositiveNumber(price))) continue;
    return `${name} must be ${market ? '0 (market) or ' : ''}a positive number, got ${price.toFixed()}`;
  }
  return undefined;
}

/**
 * PLACE_ORDER rule: a market order's price is "0" (or absent); a limit order, and a modify that
 * sets one, needs a positive price. "Positive" is `gt(0)`: decimal.js `isPositive()` is true for
 * zero. A NaN or infinite price (the order factory keeps such a number as it is) is denied here too.
 * So are trigger and stop prices that are not positive numbers (an algo order's or replacement's
 * triggerPrice, an order's take-profit or stop-loss triggerPrice; a conditional order's triggerPrice
 * and stopPrice are conditionArguments') and the limit prices that go with them that are neither "0" (market)
 * nor positive (an algo order's, a replacement's, a take-profit's or stop-loss's price): a venue
 * refuses them, the gate says why first.
 */
export const orderPriceCheck: RiskCheck = {
  name: 'orderPrice',
  kind: 'rule',
  intents: ['placeOrder', 'modifyOrder', 'placeAlgoOrder', 'replaceAlgoOrder'],
  run({ intent }) {
    const trigger = triggerPriceProblem(intent);
    if (trigger !== undefined) return deny('orderPrice', `${intent.kind} ${intent.ref}: ${trigger}`);
    if (intent.kind === 'modifyOrder' && intent.price !== undefined && !isPositiveNumber(intent.price)) {
      return deny(
        'orderPrice',
        `modifyOrder ${intent.ref}: price must be a positive number, got ${intent.price.toFixed()}`,
      );
    }
    if (intent.kind !== 'placeOrder') return undefined;
    if (intent.orderType === 'MARKET' && intent.price !== undefined && !intent.price.isZero()) {
      return deny(
        'orderPrice',
        `market order ${intent.ref} has price ${intent.price.toFixed()}; a market order's price must be "0" or absent`,
      );
    }
    if (intent.orderType === 'LIMIT' && (intent.price === undefined || !isPositiveNumber(intent.price))) {
      return deny(
        'orderPrice',
        `limit order ${intent.ref} needs a positive price: price must be a positive number, got ${intent.price === undefined ? 'none' : intent.price.toFixed()}`,
      );
    }
    return undefined;
  },
};

/**
 * The quantity of an order, algo order, modify or replace is not negative, NaN or infinite (zero is
 * minSize's to deny, saying it is below the minimum): a negative one
 * (`qty: -0.115`, a sell meant as a negative buy) would otherwise be judged by the size checks as
 * below minSize, and a NaN or infinite one (the order factory keeps such a number as it is) by
 * none clearly. The same holds for an order's quoteOrderQty (`quoteQty`). An order that sets both
 * a qty above zero and a quoteOrderQty is denied: the venue's PLACE_ORDER takes both fields and
 * its spec does not say which one sizes the order, so the gate could not tell which size to judge
 * (it would judge the qty, and the venue might trade the quote amount).
 */
export const orderQtyCheck: RiskCheck = {
  name: 'orderQty',
  kind: 'rule',
  intents: ['placeOrder', 'modifyOrder', 'placeAlgoOrder', 'replaceAlgoOrder'],
  run({ intent }) {
    const quote = intent.kind === 'placeOrder' ? intent.quoteOrderQty : undefined;
    if (quote !== undefined && !isPositiveNumber(quote) && !quote.isZero()) {
      return deny(
        'orderQty',
        `${intent.kind} ${intent.ref}: quoteQty (quoteOrderQty) must be a positive number, got ${quote.toFixed()}`,
      );
    }
    if (quote !== undefined && !quote.isZero() && intent.kind === 'placeOrder' && !intent.qty.isZero()) {
      return deny(
        'orderQty',
        `${intent.kind} ${intent.ref}: sets both qty ${intent.qty.toFixed()} and quoteQty (quoteOrderQty) ${quote.toFixed()}; the venue does not say which one sizes the order, so set one: qty, or quoteQty alone`,
      );
    }
    const qty = qtyOf(intent);
    // Zero is left to minSize, which says the more useful thing (a qty rounded down to nothing).
    if (qty === undefined || isPositiveNumber(qty) || qty.isZero()) return undefined;
    return deny(
      'orderQty',
      `${intent.kind} ${intent.ref}: qty must be a positive number, got ${qty.toFixed()}`,
    );
  },
};

/**
 * The amount of a borrow or repay is a positive number: a zero, negative, NaN or infinite one
 * (the loan builder keeps such a number as it is) is denied here, not refused by the venue.
 */
export const loanAmountCheck: RiskCheck = {
  name: 'loanAmount',
  kind: 'rule',
  intents: ['borrow', 'repay'],
  run({ intent }) {
    if ((intent.kind !== 'borrow' && intent.kind !== 'repay') || isPositiveNumber(intent.amount))
      return undefined;
    return deny(
      'loanAmount',
      `${intent.kind} ${intent.ref}: amount must be a positive number, got ${intent.amount.toFixed()}`,
    );
  },
};

/** The qty an intent sets, undefined when it sets none. */
function qtyOf(intent: Intent): Dec | undefined {
  switch (intent.kind) {
    case 'placeOrder':
    case 'modifyOrder':
    case 'placeAlgoOrder':
    case 'replaceAlgoOrder':
      return intent.qty;
    default:
      return undefined;
  }
}

/**
 * Denies a new order whose time in force the venue cannot carry for its instrument: DAY or GTD on
 * a crypto sym (the venue's crypto orders are GTC, IOC, FOK or GTX), GTX (post-only) on an
 * equity. Sent anyway, such an order would rest as something else (a crypto DAY order as GTC)
 * or be refused at the wire.
 */
export const timeInForceCheck: RiskCheck = {
  name: 'timeInForce',
  kind: 'rule',
  intents: ['placeOrder'],
  run({ intent, view }) {
    if (intent.kind !== 'placeOrder') return undefined;
    const kind = view.instrument(intent.sym)?.id.kind;
    if (kind === undefined || VENUE_TIMES_IN_FORCE[kind].has(intent.timeInForce)) return undefined;
    const allowed = [...VENUE_TIMES_IN_FORCE[kind]].join(', ');
    return deny(
      'timeInForce',
      `order ${intent.ref} is ${intent.timeInForce}, which the venue does not take for ${kind} (${intent.sym}): use ${allowed}`,
    );
  },
};

/**
 * PLACE_ORDER rule: GTD needs an expiry date YYYY-MM-DD, not in the past; no other validity takes
 * one. A US equity's date is a New York date (as the kernel writes it and the sim expires it), so
 * an order for "today" placed after 19:00/20:00 New York (midnight UTC) still passes; others are UTC.
 */
export const gtdExpiryDateCheck: RiskCheck = {
  name: 'gtdExpiryDate',
  kind: 'rule',
  intents: ['placeOrder'],
  run({ intent, view }) {
    if (intent.kind !== 'placeOrder') return undefined;
    if (intent.timeInForce !== 'GTD') {
      return intent.expiryDate === undefined
        ? undefined
        : deny(
            'gtdExpiryDate',
            `order ${intent.ref} has an expiryDate but timeInForce ${intent.timeInForce}, not GTD`,
          );
    }
    if (intent.expiryDate === undefined) {
      return deny('gtdExpiryDate', `GTD order ${intent.ref} needs an expiryDate (YYYY-MM-DD)`);
    }
    const zone = view.instrument(intent.sym)?.id.kind === 'equity' ? US_EQUITY_ZONE : 'utc';
    const date = DateTime.fromFormat(intent.expiryDate, 'yyyy-MM-dd', { zone });
    if (!date.isValid) {
      return deny(
        'gtdExpiryDate',
        `GTD order ${intent.ref} has expiryDate ${JSON.stringify(intent.expiryDate)}, not a YYYY-MM-DD date`,
      );
    }
    const today = DateTime.fromMillis(view.now(), { zone }).startOf('day');
    if (date < today) {
      return deny(
        'gtdExpiryDate',
        `GTD order ${intent.ref} expires ${intent.expiryDate}, which is already past (${zone === 'utc' ? 'UTC' : 'New York'})`,
      );
    }
    return undefined;
  },
};

/**
 * PLACE_ORDER rules for conditional orders: UT, DT, SL and OCO need a triggerPrice, OCO also a
 * stopPrice, TIME a timeToSend in `yyyy-MM-dd HH:mm:ss`.
 */
export const conditionArgumentsCheck: RiskCheck = {
  name: 'conditionArguments',
  kind: 'rule',
  intents: ['placeOrder'],
  run({ intent }) {
    if (intent.kind !== 'placeOrder' || intent.condition === undefined) return undefined;
    const { code, triggerPrice, stopPrice, timeToSend } = intent.condition;
    if (CONDITIONS_NEEDING_TRIGGER.has(code) && (triggerPrice === undefined || !triggerPrice.gt(0))) {
      return deny('conditionArguments', `${code} order ${intent.ref} needs a positive triggerPrice`);
    }
    if (code === 'OCO' && (stopPrice === undefined || !stopPrice.gt(0))) {
      return deny('conditionArguments', `OCO order ${intent.ref} needs a positive stopPrice`);
    }
    if (code === 'TIME') {
      const valid =
        timeToSend !== undefined &&
        DateTime.fromFormat(timeToSend, 'yyyy-MM-dd HH:mm:ss', { zone: 'utc' }).isValid;
      if (!valid) {
        return deny(
          'conditionArguments',
          `TIME order ${intent.ref} needs timeToSend as yyyy-MM-dd HH:mm:ss, got ${JSON.stringify(timeToSend)}`,
        );
      }
    }
    return undefined;
  },
};

function positionSideOf(intent: Intent): PositionSide | undefined {
  switch (intent.kind) {
    case 'placeOrder':
    case 'placeAlgoOrder':
    case 'closePosition':
      return intent.positionSide;
    default:
      return undefined;
  }
}

/** positionSide must be LONG or SHORT in BOTH mode and NONE in NET mode (per public venue docs). */
export const positionSideCheck: RiskCheck = {
  name: 'positionSide',
  kind: 'rule',
  intents: ['placeOrder', 'placeAlgoOrder', 'closePosition'],
  run({ intent, view }) {
    const side = positionSideOf(intent);
    if (side === undefined) return undefined;
    const mode = view.positionMode();
    if (mode === 'BOTH' && side === 'NONE') {
      return deny(
        'positionSide',
        `${intent.kind} ${intent.ref} needs positionSide LONG or SHORT: the portfolio is in BOTH mode`,
      );
    }
    if (mode === 'NET' && side !== 'NONE') {
      return deny(
        'positionSide',
        `${intent.kind} ${intent.ref} has positionSide ${side}; in NET mode it must be NONE`,
      );
    }
    return undefined;
  },
};
