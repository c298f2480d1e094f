/** Who denied an intent: the kernel's own checks, the risk gate, or the venue refusing a command. */
export type DenialRecordSource = 'kernel' | 'risk' | 'venue';

/**
 * An intent that did not go through, as a result lists it: denied by the kernel (references,
 * ownership), by the risk gate, or refused by the venue (a non-order command; order rejections
 * are REJECTED orders in the orders). The strategy was told through `onDenied`.
 */
export interface DenialRecord {
  /** When it was denied, epoch ms. */
  readonly ts: number;
  /** The strategy whose intent it was (`keel` for Keel's own end-of-run close). */
  readonly strategyId: string;
  /** The intent's kind, e.g. `placeOrder`. */
  readonly intentKind: string;
  /** The intent's reference (its clientOrderId for an order). */
  readonly ref: string;
  /** The sym the intent named; absent when it named none (or for a venue refusal, which echoes only the reference). */
  readonly sym?: string;
  readonly source: DenialRecordSource;
  /**
   * The check that failed: a risk check by its config key (`maxNotional`, `submitRate`), a
   * kernel check (`kernel.ownership`) or the venue's code (`venue.<code>`).
   */
  readonly check: string;
  /** A sentence saying why. */
  readonly reason: string;
}
