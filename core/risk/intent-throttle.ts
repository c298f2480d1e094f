import type { Intent } from '../model/index.ts';
import type { Denial } from './risk-decision.ts';
import type { RateLimit, RiskLimits } from './risk-limits.ts';
import { TokenBucket } from './token-bucket.ts';

type ThrottleKind = 'submit' | 'modify';

function throttleKindOf(intent: Intent): ThrottleKind {
  return intent.kind === 'modifyOrder' || intent.kind === 'replaceAlgoOrder' ? 'modify' : 'submit';
}

/** The portfolio's bucket key of each kind. */
const PORTFOLIO_KEYS: Readonly<Record<ThrottleKind, string>> = {
  submit: 'portfolio||submit',
  modify: 'portfolio||modify',
};

function strategyBucketKey(strategyId: string, kind: ThrottleKind): string {
  return `strategy|${strategyId}|${kind}`;
}

/** The denial naming a used-up rate. */
function rateDenial(intent: Intent, kind: ThrottleKind, owner: string, rate: RateLimit | undefined): Denial {
  return {
    check: kind === 'submit' ? 'submitRate' : 'modifyRate',
    reason: `${intent.kind} ${intent.ref} refused: ${owner}'s ${kind} rate of ${rate?.limit} per ${rate?.intervalMs} ms is used up`,
  };
}

/**
 * The risk gate's submit and modify throttle: one token bucket per owner (the portfolio, each
 * strategy) and kind, made on first use from the rate in force. An intent must find a token in
 * every bucket that applies to it, and takes one from each only when all have one.
 */
export class IntentThrottle {
  readonly #limits: RiskLimits;
  readonly #buckets = new Map<string, TokenBucket>();
  readonly #strategyKeys = new Map<string, Readonly<Record<ThrottleKind, string>>>();

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
    for (const kind of ['submit', 'modify'] as const)
      this.#buckets.delete(strategyBucketKey(strategyId, kind));
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
    const portfolioRate = kind === 'submit' ? this.#limits.submitRate : this.#limits.modifyRate;
    const strategyRate = kind === 'submit' ? strategyLimits.submitRate : strategyLimits.modifyRate;
    if (!portfolioRate && !strategyRate) return undefined;
    const portfolio =
      portfolioRate === undefined ? undefined : this.#bucket(PORTFOLIO_KEYS[kind], portfolioRate);
    const strategy =
      strategyRate === undefined
        ? undefined
        : this.#bucket(this.#strategyKey(strategyId, kind), strategyRate);
    if (portfolio !== undefined && !portfolio.canTake(now))
      return rateDenial(intent, kind, 'the portfolio', portfolioRate);
    if (strategy !== undefined && !strategy.canTake(now))
      return rateDenial(intent, kind, `strategy ${strategyId}`, strategyRate);
    portfolio?.take(now);
    strategy?.take(now);
    return undefined;
  }

  /** A strategy's bucket key, built once per strategy and kind rather than per intent. */
  #strategyKey(strategyId: string, kind: ThrottleKind): string {
    let keys = this.#strategyKeys.get(strategyId);
    if (keys === undefined) {
      keys = {
        submit: strategyBucketKey(strategyId, 'submit'),
        modify: strategyBucketKey(strategyId, 'modify'),
      };
      this.#strategyKeys.set(strategyId, keys);
    }
    return keys[kind];
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
