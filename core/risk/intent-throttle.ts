import type { Intent } from '../model/index.ts';
import type { Denial } from './risk-decision.ts';
import type { RateLimit, RiskLimits } from './risk-limits.ts';
import { TokenBucket } from './token-bucket.ts';

type ThrottleKind = 'submit' | 'modify';

function throttleKindOf(intent: Intent): ThrottleKind {
  return intent.kind === 'modifyOrder' || intent.kind === 'replaceAlgoOrder' ? 'modify' : 'submit';
}

/**
 * The risk gate's submit and modify throttle: one token bucket per owner (the portfolio, each
 * strategy) and kind, made on first use from the rate in force. An intent must find a token in
 * every bucket that applies to it, and takes one from each only when all have one.
 */
export class IntentThrottle {
  readonly #limits: RiskLimits;
  readonly #buckets = new Map<string, TokenBucket>();

  /**
   * @param limits - the portfolio limits (their submit and modify rates)
   */
  constructor(limits: RiskLimits) {
    this.#limits = limits;
  }

  /**
   * Drops a strategy's buckets, so its next intents are throttled at its new rates.
   * @param strategyId - the strategy whose limits changed
   */
  forgetStrategy(strategyId: string): void {
    for (const kind of ['submit', 'modify'] as const) this.#buckets.delete(`strategy|${strategyId}|${kind}`);
  }

  /**
   * Throttles one intent (not a cancel: cancels are never throttled).
   * @param strategyId - the strategy that emitted it
   * @param intent - the intent
   * @param strategyLimits - the strategy's limits (their submit and modify rates)
   * @param now - the run's time, epoch ms
   * @returns the denial naming the used-up rate, or undefined (a token was taken)
   */
  denial(strategyId: string, intent: Intent, strategyLimits: RiskLimits, now: number): Denial | undefined {
    const kind = throttleKindOf(intent);
    if (
      kind === 'submit'
        ? !this.#limits.submitRate && !strategyLimits.submitRate
        : !this.#limits.modifyRate && !strategyLimits.modifyRate
    )
      return undefined;
    const rateOf = (limits: RiskLimits): RateLimit | undefined =>
      kind === 'submit' ? limits.submitRate : limits.modifyRate;
    const buckets: [string, TokenBucket][] = [];
    const portfolioRate = rateOf(this.#limits);
    const strategyRate = rateOf(strategyLimits);
    if (portfolioRate !== undefined)
      buckets.push(['the portfolio', this.#bucket(`portfolio||${kind}`, portfolioRate)]);
    if (strategyRate !== undefined) {
      buckets.push([`strategy ${strategyId}`, this.#bucket(`strategy|${strategyId}|${kind}`, strategyRate)]);
    }
    for (const [owner, bucket] of buckets) {
      if (!bucket.canTake(now)) {
        const rate = owner === 'the portfolio' ? portfolioRate : strategyRate;
        return {
          check: kind === 'submit' ? 'submitRate' : 'modifyRate',
          reason: `${intent.kind} ${intent.ref} refused: ${owner}'s ${kind} rate of ${rate?.limit} per ${rate?.intervalMs} ms is used up`,
        };
      }
    }
    for (const [, bucket] of buckets) bucket.take(now);
    return undefined;
  }

  #bucket(key: string, rate: RateLimit): TokenBucket {
    let bucket = this.#buckets.get(key);
    if (bucket === undefined) {
      bucket = new TokenBucket(rate);
      this.#buckets.set(key, bucket);
    }
    return bucket;
  }
}
