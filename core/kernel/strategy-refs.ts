/**
 * How a reference stands against a strategy's generated ones ({@link StrategyRefs.claim}):
 * `redeemed`, generated and not submitted before (taken now); `used`, generated and submitted
 * before; `reserved`, of the generated form but not generated (yet).
 */
export type GeneratedRefClaim = 'redeemed' | 'used' | 'reserved';

/** Whether `ref` is `prefix` then a counter in base 36 as `toString(36)` writes it (0-9, a-z, no leading 0). */
function isCounterAfter(ref: string, prefix: string): boolean {
  if (ref.length <= prefix.length || !ref.startsWith(prefix) || ref.charCodeAt(prefix.length) === 48)
    return false;
  for (let i = prefix.length; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    // 0-9, a-z
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 122))) return false;
  }
  return true;
}

/**
 * Whether a reference has the form of a strategy's generated references: `{id}-{counter}` (a
 * backtest's) in every mode or, in a run with a tag, `{id}-{runId}-{counter}` with this run's tag
 * only (another tag's form is a custom reference here), the counter in base 36 as
 * `Number.prototype.toString(36)` writes it (0-9 and a-z, no leading 0: `pmm-bid` has the form).
 * So a custom reference a backtest refuses is refused in paper and live too, and one that merely
 * starts with `{id}-` (`pmm-bid-1`, `pmm-BUY-1`) is refused in none.
 * @param ref - a caller reference
 * @param id - the strategy id
 * @param prefix - the strategy's prefix (`{id}-` or `{id}-{runId}-`)
 * @returns true when it has that form
 */
export function hasGeneratedForm(ref: string, id: string, prefix: string): boolean {
  return isCounterAfter(ref, prefix) || (prefix.length !== id.length + 1 && isCounterAfter(ref, `${id}-`));
}

/**
 * The caller references a strategy generates: `{id}-{runId-}{counter in base 36}`, each to be
 * submitted once. Generated references are unique by construction; the intent pipeline redeems
 * each as it is submitted, so a second submission of the same one is refused. A custom reference
 * of that form ({@link hasGeneratedForm}) is refused too (it could meet one generated later); any
 * other, even one starting with `{id}-` (`pmm-bid-1`), is the strategy's to use, once per run.
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
  constructor(
    private readonly id: string,
    runId: string,
  ) {
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

  /**
   * Redeems a reference of the generated form as it is submitted, or says why it may not go.
   * @param ref - a caller reference
   * @returns how it stands ({@link GeneratedRefClaim}); undefined when it does not have the
   *   generated form (a custom reference)
   */
  claim(ref: string): GeneratedRefClaim | undefined {
    if (this.redeem(ref)) return 'redeemed';
    if (isCounterAfter(ref, this.prefix))
      return Number.parseInt(ref.slice(this.prefix.length), 36) <= this.counter ? 'used' : 'reserved';
    return hasGeneratedForm(ref, this.id, this.prefix) ? 'reserved' : undefined;
  }
}
