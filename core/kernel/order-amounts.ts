import type { Dec, InstrumentSpec, OrderSide, TpSl } from '../model/index.ts';
import { D, decimalForStep, decimalOf, parseDecimal, ZERO } from '../model/index.ts';
import type { Amount, TpSlInput } from './order-inputs.ts';

/**
 * Turns an amount into a Decimal exactly.
 * @param value - Decimal, number or decimal string
 * @param field - the field name for the error message
 * @returns the Decimal
 * @throws TypeError when a number is not finite or a string is not a decimal
 */
export function toDecimal(value: Amount, field: string): Dec {
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new TypeError(`order factory: ${field} must be a finite number, got ${value}`);
    return decimalOf(value);
  }
  return typeof value === 'string' ? parseDecimal(value, field) : value;
}

/**
 * An amount about to be rounded to a tick or lot: a number is taken without its float noise
 * (`33.4 * 3` is 100.2, not a tick below it) but never moved off a grid point it lies on (see
 * decimalForStep); a Decimal or string exactly.
 */
function toRoundable(value: Amount, field: string, step: Dec): Dec {
  const exact = toDecimal(value, field);
  return typeof value === 'number' ? decimalForStep(value, step) : exact;
}

/**
 * A number that is NaN or infinite as decimal.js's NaN or Infinity: an order's qty or limit price
 * (`qty: NaN` from a division by a zero price) is kept so, for the risk gate to deny it as any
 * other that is not a positive number (`orderQty`, `orderPrice`), rather than thrown here, which
 * halted the whole strategy as a fault.
 */
function nonFiniteOf(value: Amount): Dec | undefined {
  return typeof value === 'number' && !Number.isFinite(value) ? new D(value) : undefined;
}

/**
 * An order quantity, rounded down to the lot when an instrument is given (`round: true`; a number
 * is first freed of its float noise, see {@link toRoundable}).
 * @param value - the quantity as the strategy wrote it
 * @param spec - the instrument to round to, or undefined to keep the value as it is
 * @returns the quantity (NaN or Infinity for such a number, see {@link nonFiniteOf})
 * @throws TypeError when a string is not a decimal
 */
export function orderQty(value: Amount, spec: InstrumentSpec | undefined): Dec {
  const nonFinite = nonFiniteOf(value);
  if (nonFinite !== undefined) return nonFinite;
  if (spec === undefined) return toDecimal(value, 'qty');
  return toRoundable(value, 'qty', spec.lotSize).div(spec.lotSize).floor().mul(spec.lotSize);
}

/**
 * A limit price, rounded to the tick when an instrument is given. Limit prices round passively
 * (buys down, sells up), so rounding never makes an order more aggressive; a number is first freed
 * of its float noise (see {@link toRoundable}).
 * @param value - the price as the strategy wrote it
 * @param side - the order's side
 * @param spec - the instrument to round to, or undefined to keep the value as it is
 * @param field - the field name for the error message
 * @returns the price
 * @throws TypeError when the amount is not a finite number or a decimal
 */
export function limitPrice(
  value: Amount,
  side: OrderSide,
  spec: InstrumentSpec | undefined,
  field = 'price',
): Dec {
  if (spec === undefined) return toDecimal(value, field);
  const steps = toRoundable(value, field, spec.tickSize).div(spec.tickSize);
  return (side === 'BUY' ? steps.floor() : steps.ceil()).mul(spec.tickSize);
}

/**
 * An order's (or a modify's) limit price as {@link limitPrice} makes it, but a number that is NaN
 * or infinite kept so ({@link nonFiniteOf}), for the risk gate's `orderPrice` check to deny.
 * @param value - the price as the strategy wrote it
 * @param side - the order's side
 * @param spec - the instrument to round to, or undefined to keep the value as it is
 * @returns the price
 * @throws TypeError when a string is not a decimal
 */
export function orderLimitPrice(value: Amount, side: OrderSide, spec: InstrumentSpec | undefined): Dec {
  return nonFiniteOf(value) ?? limitPrice(value, side, spec);
}

/**
 * A trigger (or stop) price, rounded to the nearest tick when an instrument is given; a price
 * exactly half a tick off goes to the tick above (100.15 to 100.2 and 100.25 to 100.3 on a 0.1
 * tick), as ccxt's priceToPrecision rounds, rather than to the even tick, which only a user who
 * counts ticks could foresee. A number is first freed of its float noise against the half-tick
 * grid, where rounding to the nearest tick turns (`100.35 - 0.2` is 100.14999999999999, meant as
 * 100.15, and rounds as 100.15 does), but never moved off a grid point it lies on (see
 * decimalForStep).
 * @param value - the price as the strategy wrote it
 * @param spec - the instrument to round to, or undefined to keep the value as it is
 * @param field - the field name for the error message
 * @returns the price
 * @throws TypeError when the amount is not a finite number or a decimal
 */
export function triggerPrice(value: Amount, spec: InstrumentSpec | undefined, field = 'triggerPrice'): Dec {
  if (spec === undefined) return toDecimal(value, field);
  return toRoundable(value, field, spec.tickSize.div(2)).toNearest(spec.tickSize, D.ROUND_HALF_CEIL);
}

/**
 * An algo order's limit price (the order it places once triggered), rounded to the tick when an
 * instrument is given: away from its trigger price, so rounding never moves a stop's limit onto
 * its trigger (a SELL stop at 95 with limit 94.91 rounds to 94.9, a BUY stop at 105 with limit
 * 105.09 to 105.1); a limit on the other side of its trigger (a buy waiting below the trigger for
 * a pull-back) is so rounded passively for its side. A limit equal to its trigger rounds
 * passively for the order's side, as {@link limitPrice}.
 * @param value - the limit price as the strategy wrote it
 * @param trigger - the trigger price, already rounded
 * @param side - the order's side
 * @param spec - the instrument to round to, or undefined to keep the value as it is
 * @returns the price
 * @throws TypeError when the amount is not a finite number or a decimal
 */
export function algoLimitPrice(
  value: Amount,
  trigger: Dec,
  side: OrderSide,
  spec: InstrumentSpec | undefined,
): Dec {
  if (spec === undefined) return toDecimal(value, 'price');
  const written = toDecimal(value, 'price');
  // Flooring is how a BUY limit rounds, ceiling how a SELL limit does.
  const roundingSide: OrderSide = written.lt(trigger) ? 'BUY' : written.gt(trigger) ? 'SELL' : side;
  return limitPrice(value, roundingSide, spec);
}

/**
 * A take-profit or stop-loss attachment, rounded to the tick when an instrument is given: its
 * trigger price to the nearest tick; its limit price (the exit order's, once triggered) for a
 * take-profit passively for the exit's side, opposite the order's (a long's SELL exit up, as
 * {@link limitPrice} does), for a stop-loss away from its trigger, aggressively for the exit's side
 * (a long's SELL exit down, a short's BUY exit up), so rounding never moves a stop's limit onto
 * its trigger and leaves it unfilled after a gap; no price means market when triggered.
 * @param input - the attachment as the strategy wrote it
 * @param orderSide - the side of the order it is attached to
 * @param spec - the instrument to round to, or undefined
 * @param kind - `tp` for a take-profit, `sl` for a stop-loss
 * @returns the attachment
 * @throws TypeError when an amount is not a finite number or a decimal
 */
export function tpSlOf(
  input: TpSlInput,
  orderSide: OrderSide,
  spec: InstrumentSpec | undefined,
  kind: 'tp' | 'sl',
): TpSl {
  const exitSide: OrderSide = orderSide === 'BUY' ? 'SELL' : 'BUY';
  // A limit rounded passively for the order's own side is rounded aggressively for the exit's.
  const roundingSide = kind === 'tp' ? exitSide : orderSide;
  return {
    triggerPrice: triggerPrice(input.triggerPrice, spec),
    triggerType: input.triggerType ?? 'LastPrice',
    price: input.price === undefined ? ZERO : limitPrice(input.price, roundingSide, spec, `${kind} price`),
  };
}
