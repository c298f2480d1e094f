import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkLogin } from '../../../backtest/paper-venue/login-check.ts';
import { RateLimits } from '../../../backtest/paper-venue/rate-limits.ts';
import type { ApiCredential } from '../../../backtest/paper-venue/rest-auth.ts';
import { isRateLimitedLogin, type TimerPort } from '../../../core/venue/index.ts';

const NOW = 1_700_000_000_000;
const credential: ApiCredential = { apiKey: 'key-1', apiSecret: 'secret-1', portfolioId: 'p1' };
const credentials = new Map([[credential.apiKey, credential]]);
const timer: TimerPort = { now: () => NOW, setTimer: () => () => undefined };

function login(args: Record<string, unknown>): unknown {
  return { action: 'login', args };
}

function signed(timestamp: string, secret = credential.apiSecret): string {
  return createHmac('sha256', secret).update(`${timestamp}GET/users/self/verify`).digest('hex');
}

describe('paper venue private login', () => {
  const timestamp = String(NOW / 1000);

  it('accepts a signed login within the clock tolerance, and says whether it is for order entry only', () => {
    const limits = new RateLimits({});
    const accepted = checkLogin(
      login({ apiKey: 'key-1', timestamp, sign: signed(timestamp), onlyTrade: true }),
      credentials,
      limits,
      timer,
      NOW,
    );
    expect(accepted).toEqual({ credential, onlyTrade: true });
    const plain = checkLogin(
      login({ apiKey: 'key-1', timestamp, sign: signed(timestamp) }),
      credentials,
      limits,
      timer,
      NOW,
    );
    expect(plain).toEqual({ credential, onlyTrade: false });
  });

  it('refuses a bad frame, an unknown key, a stale timestamp and a wrong signature, each in words', () => {
    const limits = new RateLimits({});
    const check = (args: Record<string, unknown>) => checkLogin(login(args), credentials, limits, timer, NOW);
    expect(check({ apiKey: 'key-1' })).toBe(
      'login failed: args need apiKey, timestamp (Unix seconds) and sign',
    );
    expect(check({ apiKey: 'other', timestamp, sign: signed(timestamp) })).toBe(
      'login failed: unknown apiKey',
    );
    const stale = String(NOW / 1000 - 61);
    expect(check({ apiKey: 'key-1', timestamp: stale, sign: signed(stale) })).toBe(
      'login failed: timestamp is not within ±60 s of the server clock',
    );
    expect(check({ apiKey: 'key-1', timestamp, sign: signed(timestamp, 'wrong') })).toBe(
      'login failed: sign does not match',
    );
    expect(check({ apiKey: 'key-1', timestamp, sign: 'not-hex' })).toBe('login failed: sign does not match');
    // Node's hex decoding drops a last odd digit: the right bytes with one digit more are no match.
    expect(check({ apiKey: 'key-1', timestamp, sign: `${signed(timestamp)}0` })).toBe(
      'login failed: sign does not match',
    );
  });

  it('charges the login rate limit only for a login it would accept', () => {
    const limits = new RateLimits({ wsLogin: { max: 1, windowMs: 1000 } });
    const check = (sign: string) =>
      checkLogin(login({ apiKey: 'key-1', timestamp, sign }), credentials, limits, timer, NOW);
    expect(check('00')).toBe('login failed: sign does not match');
    expect(check(signed(timestamp))).toEqual({ credential, onlyTrade: false });
    expect(check(signed(timestamp))).toMatch(/^login failed: /);
  });

  it("says a rate-limited login was rate limited, in words Keel's client tells from a clock refusal", () => {
    const limits = new RateLimits({ wsLogin: { max: 1, windowMs: 1000 } });
    const check = (at: string) =>
      checkLogin(
        login({ apiKey: 'key-1', timestamp: at, sign: signed(at) }),
        credentials,
        limits,
        timer,
        NOW,
      );
    check(timestamp);
    const limited = check(timestamp);
    expect(typeof limited === 'string' && isRateLimitedLogin(limited)).toBe(true);
    const stale = String(NOW / 1000 - 61);
    expect(isRateLimitedLogin(check(stale) as string)).toBe(false);
  });
});
