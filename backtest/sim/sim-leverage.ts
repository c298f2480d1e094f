import type { InstrumentId } from '../../core/model/index.ts';

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
