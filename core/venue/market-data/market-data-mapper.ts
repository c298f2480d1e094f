import type { MarketEvent } from '../../model/index.ts';
import type { UntrustedPush } from './wire-field-readers.ts';
import type { MarketDataChannel } from './wire-types.ts';

/**
 * Maps one market-data channel's pushes to model events (tardis-node style: one mapper per
 * message kind).
 */
export interface MarketDataMapper<E extends MarketEvent = MarketEvent> {
  /** The channel this mapper decodes. */
  readonly channel: MarketDataChannel;
  /**
   * Whether a parsed message is a push of this mapper's channel.
   * @param msg - any parsed JSON message
   * @returns true when `msg.arg.channel` is this channel
   */
  canHandle(msg: unknown): msg is UntrustedPush;
  /**
   * Decodes a push this mapper can handle.
   * @param msg - a push for which {@link MarketDataMapper.canHandle} returned true
   * @param recvTs - local receive time, epoch ms
   * @returns the model event
   * @throws MarketDataDecodeError naming the field when the push is malformed
   */
  map(msg: UntrustedPush, recvTs: number): E;
}

/**
 * Whether a message is a push of `channel`; shared by every mapper's `canHandle`.
 * @param msg - any parsed JSON message
 * @param channel - the channel to test for
 * @returns true when `msg.arg.channel === channel`
 */
export function isPushOf(msg: unknown, channel: MarketDataChannel): msg is UntrustedPush {
  if (typeof msg !== 'object' || msg === null) return false;
  const arg = (msg as { arg?: unknown }).arg;
  return typeof arg === 'object' && arg !== null && (arg as { channel?: unknown }).channel === channel;
}

/**
 * Makes the mapper of one channel from its decoder: `canHandle` is {@link isPushOf} on the channel,
 * and `map` is the decoder itself (no wrapper, so the per-event path is the decoder's call alone).
 * @param channel - the channel decoded
 * @param map - decodes a push of that channel; throws MarketDataDecodeError naming a wrong field
 * @returns the mapper
 * @example
 * export const bboMapper = channelMapper('BBO', (msg, recvTs): QuoteEvent => ({ ... }));
 */
export function channelMapper<E extends MarketEvent>(
  channel: MarketDataChannel,
  map: (msg: UntrustedPush, recvTs: number) => E,
): MarketDataMapper<E> {
  return {
    channel,
    canHandle: (msg: unknown): msg is UntrustedPush => isPushOf(msg, channel),
    map,
  };
}
