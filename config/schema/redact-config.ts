import { D, REDACTED, Secret } from '../../core/model/index.ts';
import { venueUrlLabel } from './venue-url.ts';

/**
 * Pino `redact` paths for a logged config (under `config`) or venue (under `venue`), a second
 * guard behind {@link Secret}'s own redaction for values copied out of it.
 */
export const LOG_REDACT_PATHS: readonly string[] = [
  'config.venue.apiKey',
  'config.venue.apiSecret',
  'venue.apiKey',
  'venue.apiSecret',
  'apiKey',
  'apiSecret',
  '*.apiKey',
  '*.apiSecret',
];

/**
 * A plain, printable copy of a config: Secrets and any `apiKey` / `apiSecret` field become
 * `[redacted]`, the venue URLs' query values too ({@link venueUrlLabel}), Decimals become their exact text, and a secret's value of at least
 * {@link MIN_SECRET_IN_TEXT} characters met inside any other string (pasted into a URL, say) is
 * replaced by `[redacted]` too. A shorter value is no credential a venue issues, and replacing it
 * would blot ordinary words (a key of `live` would print `mode: "[redacted]"`); the config's
 * variables behind the credentials cannot be referenced elsewhere (the loader refuses it). Safe
 * for `keel validate --print` and logs.
 * @param value - a validated config or any part of one
 * @returns JSON-ready data with no secret in it
 */
export function redactConfig(value: unknown): unknown {
  const secrets: string[] = [];
  collectSecrets(value, secrets);
  return redactWith(
    value,
    secrets.filter((secret) => secret.length >= MIN_SECRET_IN_TEXT),
  );
}

/** The shortest secret value `redactConfig` looks for inside other strings. */
const MIN_SECRET_IN_TEXT = 8;

function collectSecrets(value: unknown, into: string[]): void {
  if (value instanceof Secret) {
    into.push(value.reveal());
  } else if (Array.isArray(value)) {
    for (const item of value) collectSecrets(item, into);
  } else if (value !== null && typeof value === 'object' && !D.isDecimal(value)) {
    for (const [key, field] of Object.entries(value)) {
      if ((key === 'apiKey' || key === 'apiSecret') && typeof field === 'string') into.push(field);
      else collectSecrets(field, into);
    }
  }
}

/** The venue URL fields, printed as {@link venueUrlLabel} prints them (query values masked). */
const VENUE_URL_KEYS: ReadonlySet<string> = new Set(['restUrl', 'privateWsUrl', 'marketDataWsUrl']);

function redactWith(value: unknown, secrets: readonly string[]): unknown {
  if (value instanceof Secret) return REDACTED;
  if (typeof value === 'string') {
    return secrets.reduce((text, secret) => text.split(secret).join(REDACTED), value);
  }
  if (Array.isArray(value)) return value.map((item) => redactWith(item, secrets));
  if (D.isDecimal(value)) return value.toFixed();
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (key === 'apiKey' || key === 'apiSecret') out[key] = REDACTED;
      else if (VENUE_URL_KEYS.has(key) && typeof field === 'string')
        out[key] = venueUrlLabel(redactWith(field, secrets) as string);
      else out[key] = redactWith(field, secrets);
    }
    return out;
  }
  return value;
}
