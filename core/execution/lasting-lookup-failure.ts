/**
 * An order lookup that failed in a way asking again will not change: the venue's answer cannot be
 * read, or the venue refuses the query itself as malformed. The execution port's `lookupOrder`
 * throws it so reconciliation gives the order an outcome instead of failing (and being retried)
 * for ever; any other failure (no answer, a venue-side error, a rate limit) may pass, and a
 * reconciliation it fails is tried again.
 */
export class LastingLookupFailure extends Error {
  override readonly name = 'LastingLookupFailure';

  /**
   * @param message - what failed and why asking again will not help, as a sentence
   * @param cause - the underlying error
   */
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
  }
}
