import { D, type Dec, type InstrumentId, type InstrumentSpec } from '../../core/model/index.ts';

/**
 * Whether the simulated venue (and the paper venue on it) applies an instrument's leverage: US
 * equities and crypto SPOT trade at 1x whatever their spec's `defaultLeverage` says (Keel's
 * choice); perpetuals and MARGIN take it.
 * @param id - the instrument's id
 * @returns false for US equities and crypto SPOT
 */
export function simTakesLeverage(id: InstrumentId): boolean {
  return id.kind === 'crypto' && id.businessType !== 'SPOT';
}

/**
 * The leverage the simulated venue trades an instrument at unless told otherwise: its spec's
 * `defaultLeverage`, or 1 where it takes none ({@link simTakesLeverage}).
 * @param spec - the instrument's spec
 * @returns the leverage
 */
export function simLeverageOf(spec: InstrumentSpec): Dec {
  return simTakesLeverage(spec.id) ? spec.defaultLeverage : D(1);
}
