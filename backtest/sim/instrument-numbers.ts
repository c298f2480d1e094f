import type { InstrumentSpec } from '../../core/model/index.ts';
import { asNumber } from '../../core/model/index.ts';

/**
 * An instrument's fields as numbers, for the per-order checks that decide on numbers first and do
 * the exact Decimal work only when the numbers are too close to tell (order sizes, the margin
 * floor, the fee bound).
 */
export interface InstrumentNumbers {
  readonly contractSize: number;
  readonly minSize: number;
  readonly minNotional: number;
  readonly maxLimitSize: number;
  readonly maxMarketSize: number;
  readonly taker: number;
  readonly markup: number;
  /** The fixed commission per fill plus the one per order (0 when none). */
  readonly fixed: number;
}

// Specs are immutable: one conversion per spec serves the whole run.
const numbersBySpec = new WeakMap<InstrumentSpec, InstrumentNumbers>();

/**
 * The number mirrors of an instrument's fields, converted once per spec.
 * @param spec - the instrument
 * @returns its fields as the nearest doubles (`asNumber`)
 */
export function instrumentNumbers(spec: InstrumentSpec): InstrumentNumbers {
  let numbers = numbersBySpec.get(spec);
  if (numbers === undefined) {
    const { fees } = spec;
    numbers = {
      contractSize: asNumber(spec.contractSize),
      minSize: asNumber(spec.minSize),
      minNotional: asNumber(spec.minNotional),
      maxLimitSize: asNumber(spec.maxLimitSize),
      maxMarketSize: asNumber(spec.maxMarketSize),
      taker: asNumber(fees.taker),
      markup: asNumber(fees.markup),
      fixed: asNumber(fees.fixedPerFill) + (fees.fixedPerOrder ? asNumber(fees.fixedPerOrder) : 0),
    };
    numbersBySpec.set(spec, numbers);
  }
  return numbers;
}
