import type { TimerPort } from '../../core/venue/index.ts';
import { loginRequestSchema, verifyLoginSignature } from '../../core/venue/index.ts';
import type { RateLimits } from './rate-limits.ts';
import { type ApiCredential, NONCE_TOLERANCE_SECONDS } from './rest-auth.ts';

/** A login the venue accepts: whose credential, and whether it asked for order entry only. */
export interface AcceptedLogin {
  readonly credential: ApiCredential;
  /** The client asked for no User Data pushes. */
  readonly onlyTrade: boolean;
}

/**
 * Checks a private connection's login frame: its shape, the apiKey, the timestamp within the
 * nonce tolerance of the server clock, the signature, and the login rate limit (taken here).
 * @param message - the parsed frame
 * @param credentials - the venue's API keys
 * @param limits - the rate limits, charged one wsLogin on an accepted login
 * @param timer - the wall clock the rate limit counts on
 * @param serverNow - the server's clock now, epoch ms (the REST `Date` header's and nonce check's)
 * @returns the accepted login, or why it failed in the venue's words
 */
export function checkLogin(
  message: unknown,
  credentials: ReadonlyMap<string, ApiCredential>,
  limits: RateLimits,
  timer: Pick<TimerPort, 'now'>,
  serverNow: number,
): AcceptedLogin | string {
  const parsed = loginRequestSchema.safeParse(message);
  if (!parsed.success) return 'login failed: args need apiKey, timestamp (Unix seconds) and sign';
  const args = parsed.data.args;
  const credential = credentials.get(args.apiKey);
  if (!credential) return 'login failed: unknown apiKey';
  if (Math.abs(Number(args.timestamp) - serverNow / 1000) > NONCE_TOLERANCE_SECONDS)
    return `login failed: timestamp is not within ±${NONCE_TOLERANCE_SECONDS} s of the server clock`;
  if (!verifyLoginSignature(credential.apiSecret, args.timestamp, args.sign))
    return 'login failed: sign does not match';
  try {
    limits.take(credential.portfolioId, 'wsLogin', timer.now());
  } catch (error) {
    return `login failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  return { credential, onlyTrade: args.onlyTrade === true };
}
