import type { StrategySpec } from './define-strategy.ts';

/** Every key a strategy spec may have; `satisfies` makes the compiler flag one added there and missed here. */
const SPEC_KEYS: readonly string[] = Object.keys({
  name: true,
  description: true,
  params: true,
  state: true,
  syms: true,
  setup: true,
  onStart: true,
  onQuote: true,
  onTrade: true,
  onBar: true,
  onOrder: true,
  onFill: true,
  onPosition: true,
  onTimer: true,
  onDenied: true,
  onTrailingStop: true,
  onAlgoOrder: true,
  onVenueStatus: true,
  onStop: true,
} satisfies Record<keyof StrategySpec<unknown, unknown>, true>);

/** A definition given to defineStrategy again carries its `kind`, which is no mistake. */
const KNOWN = new Set([...SPEC_KEYS, 'kind']);

/** Levenshtein distance, case-insensitive: `onbar` is one step from nothing but `onBar`. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      next.push(Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + cost));
    }
    row = next;
  }
  return row[y.length] ?? 0;
}

/** The spec key nearest to `key`, the first of equals in {@link SPEC_KEYS} order. */
function nearestKey(key: string): string {
  let best = SPEC_KEYS[0] ?? 'name';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const known of SPEC_KEYS) {
    const d = distance(key, known);
    if (d < bestDistance) {
      best = known;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * The first key of a strategy spec that is none of the spec's, with the known key nearest to it: a
 * misspelled hook (`onbar`, `onFills`) added by a spread passes the compiler and is never called.
 * @param spec - what was given to defineStrategy
 * @returns the sentence saying which key and what was likely meant, or undefined when every key is known
 */
export function unknownSpecKey(spec: object): string | undefined {
  for (const key of Object.keys(spec)) {
    if (KNOWN.has(key)) continue;
    return `${JSON.stringify(key)} is not a strategy hook or setting, so it would never be called or read: did you mean ${nearestKey(key)}? (known: ${SPEC_KEYS.join(', ')})`;
  }
  return undefined;
}
