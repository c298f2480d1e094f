/**
 * The caller references a strategy generates: `{id}-{runId-}{counter in base 36}`, each to be
 * submitted once. Generated references are unique by construction; the intent pipeline redeems
 * each as it is submitted, so a second submission of the same one is refused.
 */
export class StrategyRefs {
  /** `{id}-` or `{id}-{runId}-`: the prefix of every reference this strategy generates. */
  readonly prefix: string;
  private counter = 0;
  /**
   * Generated references not yet submitted (a generated reference may be submitted once): the
   * latest one, which is nearly always submitted next, and the others. The latest is kept apart
   * so the usual generate-then-submit costs no set insert and delete.
   */
  private latest: string | undefined;
  private readonly issued = new Set<string>();

  /**
   * @param id - the strategy id
   * @param runId - the run tag ('' in backtests)
   */
  constructor(id: string, runId: string) {
    this.prefix = runId === '' ? `${id}-` : `${id}-${runId}-`;
  }

  /** @returns the next generated caller reference: `{id}-{runId-}{counter in base 36}` */
  next(): string {
    this.counter++;
    const ref = this.prefix + this.counter.toString(36);
    if (this.latest !== undefined) this.issued.add(this.latest);
    this.latest = ref;
    return ref;
  }

  /**
   * Takes a generated reference out of the issued set as it is submitted.
   * @param ref - a reference starting with this strategy's prefix
   * @returns true when this strategy generated it and it was not submitted before
   */
  redeem(ref: string): boolean {
    if (ref === this.latest) {
      this.latest = undefined;
      return true;
    }
    return this.issued.delete(ref);
  }
}
