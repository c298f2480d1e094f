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

/** One field to check: its name, its value, its values, and whether it may be absent. */
type FieldRule = readonly [
  field: string,
  value: unknown,
  allowed: readonly (string | boolean)[],
  optional: boolean,
];

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
  for (const [field, value, allowed, optional] of fieldRules(intent)) {
    if (value === undefined && optional) continue;
    if (!allowed.includes(value as string | boolean)) return { field, value, allowed };
  }
  return undefined;
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

function fieldRules(intent: Intent): readonly FieldRule[] {
  switch (intent.kind) {
    case 'placeOrder':
      return [
        ['side', intent.side, ORDER_SIDES, false],
        ['orderType', intent.orderType, ORDER_TYPES, false],
        ['timeInForce', intent.timeInForce, TIMES_IN_FORCE, false],
        ['positionSide', intent.positionSide, POSITION_SIDES, false],
        ['reduceOnly', intent.reduceOnly, BOOLEANS, true],
        ['extendedTrading', intent.extendedTrading, BOOLEANS, true],
        ['tp.triggerType', intent.tp?.triggerType, TRIGGER_PRICE_TYPES, intent.tp === undefined],
        ['sl.triggerType', intent.sl?.triggerType, TRIGGER_PRICE_TYPES, intent.sl === undefined],
        ['condition.code', intent.condition?.code, CONDITION_CODES, intent.condition === undefined],
        [
          'trailingStop.offsetType',
          intent.trailingStop?.offsetType,
          TRAILING_OFFSET_TYPES,
          intent.trailingStop === undefined,
        ],
        [
          'trailingStop.triggerOn',
          intent.trailingStop?.triggerOn,
          EMULATION_TRIGGERS,
          intent.trailingStop === undefined,
        ],
      ];
    case 'placeAlgoOrder':
      return [
        ['side', intent.side, ORDER_SIDES, false],
        ['algoOrderType', intent.algoOrderType, ALGO_ORDER_TYPES, false],
        ['conditionType', intent.conditionType, ALGO_CONDITION_TYPES, false],
        ['triggerType', intent.triggerType, TRIGGER_PRICE_TYPES, false],
        ['positionSide', intent.positionSide, POSITION_SIDES, false],
        ['reduceOnly', intent.reduceOnly, BOOLEANS, true],
      ];
    case 'closePosition':
      return [['positionSide', intent.positionSide, POSITION_SIDES, false]];
    case 'cancelAllAlgoOrders':
      return [['algoOrderType', intent.algoOrderType, ALGO_ORDER_TYPES, true]];
    case 'setPositionMode':
      return [['positionMode', intent.positionMode, POSITION_MODES, false]];
    default:
      return [];
  }
}
