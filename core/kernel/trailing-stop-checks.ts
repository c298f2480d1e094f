import type { InstrumentSpec, PlaceOrderIntent, TrailingStopSpec } from '../model/index.ts';
import { describeUnknownFieldValue, unknownFieldValue } from '../model/index.ts';

/**
 * Why the kernel cannot emulate a trailing stop, if it cannot: an unknown sym or one without a
 * positive tick, a reference already held, a field outside its values (a side of `buy` would
 * trail as a sell; the risk gate, which judges the stop after these checks, would deny the same),
 * not a MARKET order, a quantity, offset or activation price that is not positive.
 * @param intent - the placeOrder intent with `trailingStop`
 * @param spec - its `trailingStop`
 * @param instrument - the instrument of its sym, undefined when not one of the run's
 * @param held - whether the emulator already holds a stop of that reference
 * @returns the end of a sentence starting "trailing stop <ref>", or undefined when it can be emulated
 */
export function trailingStopProblem(
  intent: PlaceOrderIntent,
  spec: TrailingStopSpec,
  instrument: InstrumentSpec | undefined,
  held: boolean,
): string | undefined {
  if (instrument === undefined) return `names ${intent.sym}, which is not an instrument of this run`;
  if (!instrument.tickSize.gt(0)) return `names ${intent.sym}, whose tick size is not positive`;
  if (held) return 'is already held';
  const unknown = unknownFieldValue(intent);
  if (unknown !== undefined) return `is refused: ${describeUnknownFieldValue(unknown)}`;
  if (intent.orderType !== 'MARKET') return 'must be a MARKET order';
  if (!intent.qty.gt(0)) return `needs qty > 0, got ${intent.qty.toString()}`;
  if (!spec.offset.gt(0)) return `needs an offset > 0, got ${spec.offset.toString()}`;
  if (spec.activationPrice !== undefined && !spec.activationPrice.gt(0))
    return `needs an activationPrice > 0, got ${spec.activationPrice.toString()}`;
  return undefined;
}
