import type { InstrumentSpec } from '../model/index.ts';
import { parseSym } from '../model/index.ts';

/**
 * The asset a sym's PnL settles in: its spec's, else (Keel's choice for syms without a spec) the
 * quote asset of a crypto sym, USD for a US equity, and the reporting currency for a sym Keel
 * cannot read.
 * @param instrument - the instrument lookup
 * @param sym - the symbol
 * @param currency - the portfolio's reporting currency
 * @returns the settlement asset
 */
export function settleAssetOf(
  instrument: (sym: string) => InstrumentSpec | undefined,
  sym: string,
  currency: string,
): string {
  const spec = instrument(sym);
  if (spec !== undefined) return spec.settleAsset;
  try {
    const id = parseSym(sym);
    return id.kind === 'crypto' ? id.quote : 'USD';
  } catch {
    return currency;
  }
}
