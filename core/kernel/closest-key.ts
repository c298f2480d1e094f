/**
 * The known key closest to a mistyped one, if it is close enough to be a typo (edit distance,
 * a swap of two adjacent letters counting as one edit, at most a third of its length, and at
 * least 1 allowed) or differs only in case or in number (`strategy` for `strategies`, which is
 * three edits away).
 * @param key - the unknown key
 * @param known - the allowed keys
 * @returns the suggestion, or undefined
 */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  const singular = singularOf(key);
  for (const candidate of known) {
    const distance = singularOf(candidate) === singular ? 0 : editDistance(key, candidate);
    if (best === undefined || distance < best.distance) best = { key: candidate, distance };
  }
  return best !== undefined && best.distance <= Math.max(1, Math.floor(key.length / 3))
    ? best.key
    : undefined;
}

/** An English word lower-cased and in the singular: `Strategies` -> `strategy`, `instruments` -> `instrument`. */
function singularOf(word: string): string {
  const lower = word.toLowerCase();
  if (lower.endsWith('ies')) return `${lower.slice(0, -3)}y`;
  return lower.endsWith('s') && !lower.endsWith('ss') ? lower.slice(0, -1) : lower;
}

/**
 * Optimal string alignment distance: Levenshtein's insertions, deletions and substitutions, plus
 * the swap of two adjacent letters as one edit, so `fats` is 1 from `fast` (plain Levenshtein
 * counts 2, more than a short key's threshold allows), the commonest typing slip.
 * @param a - one string
 * @param b - the other
 * @returns the number of edits from one to the other
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (before[j - 2] ?? 0) + 1);
      row.push(best);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length] ?? 0;
}
