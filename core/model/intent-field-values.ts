import { ALGO_CONDITION_TYPES, ALGO_ORDER_TYPES } from './algo-order.ts';
import { EMULATION_TRIGGERS, type Intent, TRAILING_OFFSET_TYPES } from './intents.ts';
import { CONDITION_CODES, ORDER_SIDES, ORDER_TYPES, TIMES_IN_FORCE, TRIGGER_PRICE_TYPES } from './order.ts';
import { POSITION_MODES, POSITION_SIDES } from './position.ts';

/** A field of an intent whose value is none of the values the field may take. */
export interface UnknownFieldValue {
  /** The field as the intent names it: `side`, `tp.triggerType`, `trailingStop.offsetType`. */
  readonly field: string;
  /** The value the intent carries. */
  readonly value: unknown;
  /** The values the field may take. */
  readonly allowed: readonly (string | boolean)[];
}

const BOOLEANS = [true, false] as const;

/**
 * The first field of an intent whose value is not one of its values: a side, order type, time
 * in force, position side, trigger type, condition code, algo order or condition type, position
 * mode, trailing stop offset type or trigger, or a reduce-only / extended-trading flag that is not
 * a boolean. The types say so already; this is for values a plugin got past them (JavaScript, a
 * YAML param, a cast), which a venue refuses (400001) and which the sim would otherwise misread
 * (any side but BUY as a sell). Values are compared exactly: `buy` is not `BUY`.
 * @param intent - the intent as a strategy built it
 * @returns the field, or undefined when every enumerated field holds one of its values
 */
export function unknownFieldValue(intent: Intent): UnknownFieldValue | undefined {
  // Each kind's fields are looked at in turn, with no list of them made per intent: the check
  // runs twice on every intent (risk gate, venue), a new order's list was a dozen arrays.
  switch (intent.kind) {
    case 'placeOrder':
      return (
        unknown('side', intent.side, ORDER_SIDES, false) ??
        unknown('orderType', intent.orderType, ORDER_TYPES, false) ??
        unknown('timeInForce', intent.timeInForce, TIMES_IN_FORCE, false) ??
        unknown('positionSide', intent.positionSide, POSITION_SIDES, false) ??
        unknown('reduceOnly', intent.reduceOnly, BOOLEANS, true) ??
        unknown('extendedTrading', intent.extendedTrading, BOOLEANS, true) ??
        unknown('tp.triggerType', intent.tp?.triggerType, TRIGGER_PRICE_TYPES, intent.tp === undefined) ??
        unknown('sl.triggerType', intent.sl?.triggerType, TRIGGER_PRICE_TYPES, intent.sl === undefined) ??
        unknown('condition.code', intent.condition?.code, CONDITION_CODES, intent.condition === undefined) ??
        unknown(
          'trailingStop.offsetType',
          intent.trailingStop?.offsetType,
          TRAILING_OFFSET_TYPES,
          intent.trailingStop === undefined,
        ) ??
        unknown(
          'trailingStop.triggerOn',
          intent.trailingStop?.triggerOn,
          EMULATION_TRIGGERS,
          intent.trailingStop === undefined,
        )
      );
    case 'placeAlgoOrder':
      return (
        unknown('side', intent.side, ORDER_SIDES, false) ??
        unknown('algoOrderType', intent.algoOrderType, ALGO_ORDER_TYPES, false) ??
        unknown('conditionType', intent.conditionType, ALGO_CONDITION_TYPES, false) ??
        unknown('triggerType', intent.triggerType, TRIGGER_PRICE_TYPES, false) ??
        unknown('positionSide', intent.positionSide, POSITION_SIDES, false) ??
        unknown('reduceOnly', intent.reduceOnly, BOOLEANS, true)
      );
    case 'closePosition':
      return unknown('positionSide', intent.positionSide, POSITION_SIDES, false);
    case 'cancelAllAlgoOrders':
      return unknown('algoOrderType', intent.algoOrderType, ALGO_ORDER_TYPES, true);
    case 'setPositionMode':
      return unknown('positionMode', intent.positionMode, POSITION_MODES, false);
    default:
      return undefined;
  }
}

/**
 * One field's problem: undefined when its value is one of `allowed`, or absent where `optional`.
 * @param field - the field as the intent names it
 * @param value - its value
 * @param allowed - the values it may take
 * @param optional - whether it may be absent
 */
function unknown(
  field: string,
  value: unknown,
  allowed: readonly (string | boolean)[],
  optional: boolean,
): UnknownFieldValue | undefined {
  if (value === undefined && optional) return undefined;
  return allowed.includes(value as string | boolean) ? undefined : { field, value, allowed };
}

/**
 * Says what is wrong with a field value, naming the values it may take.
 * @param problem - the field, its value and its values
 * @returns e.g. `side "buy" is not one of BUY, SELL`
 */
export function describeUnknownFieldValue(problem: UnknownFieldValue): string {
  const shown = problem.value === undefined ? 'is missing' : `${JSON.stringify(problem.value)} is not`;
  return `${problem.field} ${shown} one of ${problem.allowed.join(', ')}`;
}
