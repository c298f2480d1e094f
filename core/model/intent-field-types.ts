import { D } from './decimal.ts';
import type { Intent, PlaceOrderIntent } from './intents.ts';

/** What a field of an intent must hold, as a sentence says it. */
export type FieldType = 'a Decimal' | 'a string' | 'an object' | 'a list of strings';

/** A field of an intent whose value is not of the type the field takes. */
export interface WrongFieldType {
  /** The field as the intent names it: `qty`, `tp.triggerPrice`, `trailingStop.offset`. */
  readonly field: string;
  /** The value the intent carries. */
  readonly value: unknown;
  /** The type the field takes. */
  readonly expected: FieldType;
}

/**
 * The first field of an intent that does not hold the type it takes: an amount (qty, price,
 * trigger, offset, loan amount) that is not a Decimal, a reference, sym, target, coin, date or
 * time that is not a string, an attachment, condition or trailing stop that is not an object, a
 * sym list that is not a list of strings. The types say so already; this is for values a plugin
 * got past them (JavaScript, a cast, `{ ...ctx.order.limit(...), qty: 5 }`), on which the risk
 * checks would otherwise throw (`value.isFinite is not a function`). A Decimal that is NaN or
 * not positive is of the right type: the checks of its values deny it. The enumerated fields
 * (side, order type, flags) are `unknownFieldValue`'s to judge; cancels are not looked at.
 * @param intent - the intent as a strategy built it
 * @returns the field, or undefined when every field holds its type
 */
export function wrongFieldType(intent: Intent): WrongFieldType | undefined {
  switch (intent.kind) {
    case 'placeOrder':
      return (
        strings(intent, ['ref', 'sym']) ??
        decimal('qty', intent.qty, false) ??
        decimal('price', intent.price, true) ??
        decimal('quoteOrderQty', intent.quoteOrderQty, true) ??
        text('expiryDate', intent.expiryDate, true) ??
        attachment('tp', intent.tp) ??
        attachment('sl', intent.sl) ??
        condition(intent.condition) ??
        trailingStop(intent.trailingStop)
      );
    case 'modifyOrder':
    case 'replaceAlgoOrder':
      return (
        strings(intent, ['ref', 'target', 'sym']) ??
        decimal('qty', intent.qty, true) ??
        decimal('price', intent.price, true) ??
        (intent.kind === 'replaceAlgoOrder' ? decimal('triggerPrice', intent.triggerPrice, true) : undefined)
      );
    case 'placeAlgoOrder':
      return (
        strings(intent, ['ref', 'sym']) ??
        decimal('triggerPrice', intent.triggerPrice, false) ??
        decimal('price', intent.price, false) ??
        decimal('qty', intent.qty, false)
      );
    case 'closePosition':
      return strings(intent, ['ref', 'sym']);
    case 'closePositions':
      return (
        text('ref', intent.ref, false) ??
        (Array.isArray(intent.symList) && intent.symList.every((sym) => typeof sym === 'string')
          ? undefined
          : { field: 'symList', value: intent.symList, expected: 'a list of strings' })
      );
    case 'borrow':
    case 'repay':
      return strings(intent, ['ref', 'exchange', 'coin']) ?? decimal('amount', intent.amount, false);
    case 'setPositionMode':
      return text('ref', intent.ref, false);
    default:
      return undefined;
  }
}

/**
 * Says what is wrong with a field's type, and how to build the intent so it is right.
 * @param problem - the field, its value and the type it takes
 * @returns e.g. `qty must be a Decimal (got the number 5): build intents with ctx.order`
 */
export function describeWrongFieldType(problem: WrongFieldType): string {
  return `${problem.field} must be ${problem.expected} (got ${describeField(problem.value)}): build intents with ctx.order`;
}

/** What a value is, in a few words; never throws (a symbol or a null-prototype object included). */
function describeField(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'number':
    case 'boolean':
    case 'bigint':
      return `the ${typeof value} ${String(value)}`;
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
    case 'object':
      return D.isDecimal(value) ? 'a Decimal' : 'an object';
    default:
      return `a ${typeof value}`;
  }
}

function decimal(field: string, value: unknown, optional: boolean): WrongFieldType | undefined {
  if (value === undefined && optional) return undefined;
  return D.isDecimal(value) ? undefined : { field, value, expected: 'a Decimal' };
}

function text(field: string, value: unknown, optional: boolean): WrongFieldType | undefined {
  if (value === undefined && optional) return undefined;
  return typeof value === 'string' ? undefined : { field, value, expected: 'a string' };
}

/** The first of some required string fields that is not a string. */
function strings<T extends Intent>(
  intent: T,
  fields: readonly (keyof T & string)[],
): WrongFieldType | undefined {
  for (const field of fields) {
    const problem = text(field, intent[field], false);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** An optional nested field, which when present must be an object. */
function nested(field: string, value: unknown): WrongFieldType | undefined {
  if (value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value)))
    return undefined;
  return { field, value, expected: 'an object' };
}

function attachment(field: 'tp' | 'sl', value: PlaceOrderIntent['tp']): WrongFieldType | undefined {
  return (
    nested(field, value) ??
    (value === undefined
      ? undefined
      : (decimal(`${field}.triggerPrice`, value.triggerPrice, false) ??
        decimal(`${field}.price`, value.price, false)))
  );
}

function condition(value: PlaceOrderIntent['condition']): WrongFieldType | undefined {
  return (
    nested('condition', value) ??
    (value === undefined
      ? undefined
      : (decimal('condition.triggerPrice', value.triggerPrice, true) ??
        decimal('condition.stopPrice', value.stopPrice, true) ??
        text('condition.timeToSend', value.timeToSend, true)))
  );
}

function trailingStop(value: PlaceOrderIntent['trailingStop']): WrongFieldType | undefined {
  return (
    nested('trailingStop', value) ??
    (value === undefined
      ? undefined
      : (decimal('trailingStop.offset', value.offset, false) ??
        decimal('trailingStop.activationPrice', value.activationPrice, true)))
  );
}
