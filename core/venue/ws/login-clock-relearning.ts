import type { Logger } from 'pino';
import { NONCE_OUT_OF_RANGE } from '../error-codes.ts';

/**
 * Login refusals a timestamp off the venue's clock may explain: 7000 (nonce out of range, the
 * code of the same ±60 s check on REST) and 60009, the one login failure public venue docs name,
 * without saying why (the paper venue answers a stale timestamp with it).
 */
const CLOCK_REFUSALS: ReadonlySet<number> = new Set([NONCE_OUT_OF_RANGE, 60009]);

/**
 * A refusal whose message says the login was rate limited (public venue docs: login 1 per
 * second): a clock cannot explain it, whatever its code. The paper venue answers one with 60009
 * (the docs' one login failure code) and says so in its message.
 */
const RATE_LIMITED = /rate[ -]?limit/i;

/**
 * Whether a login refusal's message says it was rate limited, which no clock explains.
 * @param message - the refusal's `msg` (or `message`)
 * @returns true when it names a rate limit
 */
export function isRateLimitedLogin(message: string): boolean {
  return RATE_LIMITED.test(message);
}

/**
 * Re-learns the venue's clock after a private-socket login refused in a way a wrong clock
 * explains, before the next login: the refusal carries no server time, and reconciliation, whose
 * REST replies would correct the clock, runs only after a login. Without it a machine clock
 * stepped while connected keeps every later login refused.
 */
export class LoginClockRelearning {
  #inDoubt = false;

  /**
   * @param refresh - asks the venue for its clock into the shared ServerClock (a REST read); none:
   *   nothing is re-learnt
   * @param logger - where refusals and failed refreshes are reported
   */
  constructor(
    private readonly refresh: (() => Promise<unknown>) | undefined,
    private readonly logger: Logger,
  ) {}

  /**
   * Notes a refused login.
   * @param code - the refusal's code
   * @param offsetMs - the clock estimate the login was signed with, for the log
   * @param message - the refusal's message (a rate-limited login is no clock refusal)
   */
  refused(code: number, offsetMs: number, message = ''): void {
    this.#inDoubt = this.refresh !== undefined && CLOCK_REFUSALS.has(code) && !isRateLimitedLogin(message);
    if (this.#inDoubt)
      this.logger.warn(
        { code, offsetMs },
        "private WebSocket login refused, perhaps for its timestamp: re-learning the venue's clock before the next attempt",
      );
  }

  /**
   * Before an attempt: re-learns the clock when the last login was refused for it. A failed
   * refresh is logged and the attempt goes on with the estimate as it is.
   * @returns when the clock was asked for, or at once
   */
  async beforeAttempt(): Promise<void> {
    const refresh = this.refresh;
    if (!this.#inDoubt || refresh === undefined) return;
    this.#inDoubt = false;
    await refresh().catch((error: Error) =>
      this.logger.warn(
        { err: error.message },
        "re-learning the venue's clock failed: logging in on the estimate as it is",
      ),
    );
  }
}
