import { closestKey } from './closest-key.ts';

/**
 * The first key of a strategy spec that is none of the known ones, with the known key nearest to
 * it: a misspelled hook (`onbar`, `onFills`) added by a spread passes the compiler and is never
 * called.
 * @param spec - what was given to defineStrategy
 * @param known - the keys a spec may have
 * @returns the sentence saying which key and what was likely meant, or undefined when every key is known
 */
export function unknownSpecKey(spec: object, known: readonly string[]): string | undefined {
  for (const key of Object.keys(spec)) {
    // A definition given to defineStrategy again carries its `kind`, which is no mistake.
    if (key === 'kind' || known.includes(key)) continue;
    const near = closestKey(key, known);
    const hint = near === undefined ? '' : `did you mean ${near}? `;
    return `${JSON.stringify(key)} is not a strategy hook or setting, so it would never be called or read: ${hint}(known: ${known.join(', ')})`;
  }
  return undefined;
}
