import type { BarInterval } from '../model/index.ts';

/** Every key handed out, by sym then interval. */
const KEYS = new Map<string, Map<string, string>>();

/**
 * The map key of a (sym, interval) of bars, `{sym}|{interval}`, built once per pair: the bar path
 * looks bars up several times per bar, and a template string costs a concatenation, then a
 * flattening and a hash at each look-up; the same string comes back with its hash cached.
 * @param sym - the symbol
 * @param interval - the bar interval
 * @returns `{sym}|{interval}`
 */
export function barKey(sym: string, interval: BarInterval): string {
  let bySym = KEYS.get(sym);
  if (bySym === undefined) {
    bySym = new Map();
    KEYS.set(sym, bySym);
  }
  let key = bySym.get(interval);
  if (key === undefined) {
    key = `${sym}|${interval}`;
    bySym.set(interval, key);
  }
  return key;
}
