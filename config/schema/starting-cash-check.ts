import type { z } from 'zod';
import { parseSym, settlesInCoins } from '../../core/model/index.ts';
import { type InstrumentConfig, missingSpecFields, settleAssetOf } from './instrument-config.ts';

/**
 * The coins a run's spot and margin instruments trade (their base assets): the only coins besides
 * the account currency its starting cash may hold, since Keel values a coin at the price of an
 * instrument trading it against the account currency (the simulated venue's spot model).
 * @param instruments - the run's instruments
 * @returns the base coins of its crypto SPOT and MARGIN instruments, in instrument order
 */
export function spotBaseCoinsOf(instruments: readonly InstrumentConfig[]): string[] {
  const coins = new Set<string>();
  for (const { sym } of instruments) {
    try {
      const id = parseSym(sym);
      if (id.kind === 'crypto' && settlesInCoins(id)) coins.add(id.base);
    } catch {
      // A sym the parser refuses is reported by the instrument's own check.
    }
  }
  return [...coins];
}

/**
 * A run's account currency from its starting cash: the asset its instruments settle in when they
 * all settle in one and the cash names it, else the first asset of the cash that no spot or
 * margin instrument trades, else the first asset (the per-instrument check then says what is wrong).
 * @param startingCash - starting balances per asset, in YAML order
 * @param instruments - the run's instruments
 * @returns the account currency; undefined when the cash names no asset
 */
export function accountCurrencyOf(
  startingCash: Readonly<Record<string, unknown>>,
  instruments: readonly InstrumentConfig[],
): string | undefined {
  const coins = Object.keys(startingCash);
  const settles = new Set(instruments.map(settleAssetOf).filter((coin) => coin !== undefined));
  const [settle] = settles;
  if (settles.size === 1 && settle !== undefined && coins.includes(settle)) return settle;
  const bases = new Set(spotBaseCoinsOf(instruments));
  return coins.find((coin) => !bases.has(coin)) ?? coins[0];
}

/**
 * A backtest keeps one account in one currency, which every instrument settles in (Keel values
 * no asset in another, so USD PnL added to a USDT account, or cash left out, would be wrong
 * without a word). Its starting cash names that currency and may also hold the base coins of
 * the run's spot and margin instruments (`{ USDT: 100000, ETH: 10 }` with `OKX_SPOT_ETH_USDT`),
 * valued at their instrument's price; any other coin is refused.
 * @param ctx - the refinement context of the config
 * @param section - the config section holding the cash (`backtest` or `paper`)
 * @param startingCash - starting balances per asset
 * @param instruments - the run's instruments
 * @param settleCheck - also require every instrument to settle in the account currency (a paper
 *   run: only when its instruments settle in more than one asset)
 */
export function checkStartingCash(
  ctx: z.RefinementCtx,
  section: 'backtest' | 'paper',
  startingCash: Readonly<Record<string, unknown>>,
  instruments: readonly InstrumentConfig[],
  settleCheck = true,
): void {
  const currency = accountCurrencyOf(startingCash, instruments);
  if (currency === undefined) return;
  const bases = spotBaseCoinsOf(instruments);
  // Cash in another instrument's settle asset is the mixed-currency case, said per instrument below.
  const settles = settleCheck ? instruments.map(settleAssetOf) : [];
  const others = Object.keys(startingCash).filter(
    (coin) => coin !== currency && !bases.includes(coin) && !settles.includes(coin),
  );
  if (others.length > 0) {
    const allowed =
      bases.length === 0
        ? 'no instrument of the run is a spot or margin one, so it may hold no other coin'
        : `it may also hold the base coin of a spot or margin instrument of the run (${bases.join(', ')}), valued at that instrument's price`;
    ctx.addIssue({
      code: 'custom',
      path: [section, 'startingCash'],
      message: `names ${others.join(', ')} besides ${currency}, the account currency every instrument settles in: ${allowed}; Keel cannot value another coin, so remove it or add a spot instrument trading it against ${currency}`,
      input: startingCash,
    });
    return;
  }
  if (!settleCheck) return;
  instruments.forEach((instrument, index) => {
    const settle = settleAssetOf(instrument);
    // A sym with no spec yet (a typo of a built-in one, most often) is reported for that alone.
    if (settle === undefined || settle === currency || missingSpecFields(instrument) !== undefined) return;
    ctx.addIssue({
      code: 'custom',
      path: ['instruments', index],
      message: `${instrument.sym} settles in ${settle}, but the run's account is in ${currency} (${section}.startingCash): a run keeps one account in one currency, so set overrides.settleAsset: ${currency} on it to count ${settle} as ${currency} one for one, or run it apart with its cash in ${settle}`,
      input: instrument.sym,
    });
  });
}
