import type { MarketEvent } from '../../model/index.ts';
import { bboMapper } from './bbo-mapper.ts';
import { MarketDataDecodeError } from './decode-error.ts';
import { indexPriceMapper } from './index-price-mapper.ts';
import { klineMapper } from './kline-mapper.ts';
import { markPriceMapper } from './mark-price-mapper.ts';
import type { MarketDataMapper } from './market-data-mapper.ts';
import { openInterestMapper } from './open-interest-mapper.ts';
import { orderBookMapper } from './order-book-mapper.ts';
import { tickerMapper } from './ticker-mapper.ts';
import { tradeMapper } from './trade-mapper.ts';
import { type UntrustedPush, wrongField } from './wire-field-readers.ts';

/** Every market-data mapper, one per channel. */
export const MARKET_DATA_MAPPERS: readonly MarketDataMapper[] = [
  bboMapper,
  tradeMapper,
  klineMapper,
  orderBookMapper,
  markPriceMapper,
  tickerMapper,
  indexPriceMapper,
  openInterestMapper,
];

/**
 * Whether a message is a control message of the market-data socket rather than a push:
 * a subscribe acknowledgement or error (`{"event": …}`), or a heartbeat (`{"ping"}` / `{"pong"}`),
 * per public venue docs.
 * @param msg - any parsed JSON message
 * @returns true for control messages, which carry no market event
 */
export function isControlMessage(msg: unknown): boolean {
  if (typeof msg !== 'object' || msg === null) return false;
  const m = msg as { event?: unknown; ping?: unknown; pong?: unknown };
  return typeof m.event === 'string' || m.ping !== undefined || m.pong !== undefined;
}

/**
 * Decodes one parsed market-data message into a model event. The dispatch is a switch on
 * `arg.channel` (no mapper search, no closure per message). Never throws: a malformed push comes
 * back as a {@link MarketDataDecodeError} naming the field.
 * @param msg - the parsed JSON message as the venue sent it
 * @param recvTs - local receive time, epoch ms
 * @returns the event; null for control messages (acks, heartbeats); a decode error otherwise
 * @example
 * const event = decodeMarketMessage(JSON.parse(frame), clock.now());
 * if (event instanceof MarketDataDecodeError) log.warn(event.message);
 * else if (event !== null) feed.next(event);
 */
export function decodeMarketMessage(
  msg: unknown,
  recvTs: number,
): MarketEvent | MarketDataDecodeError | null {
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
    return wrongField('?', '?', 'message', 'must be a JSON object', msg);
  }
  const arg = (msg as { arg?: unknown }).arg;
  if (typeof arg !== 'object' || arg === null || Array.isArray(arg)) {
    if (isControlMessage(msg)) return null;
    return wrongField('?', '?', 'arg', 'must be an object with channel and sym', arg);
  }
  const push = msg as UntrustedPush;
  try {
    switch (push.arg.channel) {
      case 'BBO':
        return bboMapper.map(push, recvTs);
      case 'TRADE':
        return tradeMapper.map(push, recvTs);
      case 'KLINE':
        return klineMapper.map(push, recvTs);
      case 'ORDER_BOOK':
        return orderBookMapper.map(push, recvTs);
      case 'MARK_PRICE':
        return markPriceMapper.map(push, recvTs);
      case 'TICKER':
        return tickerMapper.map(push, recvTs);
      case 'INDEX_PRICE':
        return indexPriceMapper.map(push, recvTs);
      case 'OPEN_INTEREST':
        return openInterestMapper.map(push, recvTs);
      default:
        return new MarketDataDecodeError(
          String(push.arg.channel ?? '?'),
          typeof push.arg.sym === 'string' ? push.arg.sym : '?',
          'arg.channel',
          `is not a channel Keel decodes (expected ${MARKET_DATA_MAPPERS.map((m) => m.channel).join(', ')})`,
        );
    }
  } catch (error) {
    if (error instanceof MarketDataDecodeError) return error;
    return new MarketDataDecodeError(
      String(push.arg.channel),
      typeof push.arg.sym === 'string' ? push.arg.sym : '?',
      'message',
      `could not be decoded: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
