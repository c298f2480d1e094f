import { D } from '../../core/model/index.ts';
import { REDACTED, Secret } from './secret.ts';

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
 * `[redacted]`, Decimals become their exact text. Safe for `keel validate --print` and logs.
 * @param value - a validated config or any part of one
 * @returns JSON-ready data with no secret in it
 */
export function redactConfig(value: unknown): unknown {
  if (value instanceof Secret) return REDACTED;
  if (Array.isArray(value)) return value.map(redactConfig);
  if (D.isDecimal(value)) return value.toFixed();
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      out[key] = key === 'apiKey' || key === 'apiSecret' ? REDACTED : redactConfig(field);
    }
    return out;
  }
  return value;
}
