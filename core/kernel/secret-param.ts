import { z } from 'zod';
import { Secret } from '../model/index.ts';

/**
 * A params schema field for a credential a strategy needs (a webhook token, another service's
 * key): a non-empty string that becomes a {@link Secret}, so it shows as `[redacted]` in
 * `keel validate --print`, in `meta.strategies[].params` of result.json and the report, and in
 * logs. The strategy reads it with `ctx.params.token.reveal()` where it is used. Give it in the
 * config as an `${ENV_VAR}` reference, so it never sits in the file either.
 * @returns the zod schema
 * @example
 * params: z.object({ sym: z.string(), webhookToken: secretParam() }),
 * // config: params: { sym: BINANCE_PERP_BTC_USDT, webhookToken: ${ALERT_WEBHOOK_TOKEN} }
 */
export function secretParam(): z.ZodType<Secret> {
  // A Secret is taken as it is: the kernel parses params a loader has already parsed.
  return z
    .preprocess((value) => (value instanceof Secret ? value.reveal() : value), z.string().min(1))
    .transform((value) => new Secret(value));
}
