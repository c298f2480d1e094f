import { decodeMarketMessage, MarketDataDecodeError } from '../../core/venue/index.ts';

/**
 * Decodes a market-data message that must be refused, for tests that inspect the refusal.
 * @param msg - the parsed message
 * @returns the decode error the decoder returned
 * @throws Error when the message decoded into an event or null instead, so the test fails
 */
export function decodeError(msg: unknown): MarketDataDecodeError {
  const result = decodeMarketMessage(msg, 1);
  if (!(result instanceof MarketDataDecodeError))
    throw new Error(`expected a decode error, got ${JSON.stringify(result)}`);
  return result;
}
