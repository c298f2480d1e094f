/**
 * A market-data message that could not be decoded. Decoders return it instead of throwing, so
 * one bad message never stops a feed or a replay; `field` names what was wrong.
 */
export class MarketDataDecodeError extends Error {
  /** Channel of the message, or "?" when it had none. */
  readonly channel: string;
  /** Sym of the message, or "?" when it had none. */
  readonly sym: string;
  /** Path of the offending field inside the message, e.g. "data.bid". */
  readonly field: string;
  /** What was wrong with it, as a sentence fragment. */
  readonly reason: string;

  /**
   * @param channel - channel of the message ("?" when unknown)
   * @param sym - sym of the message ("?" when unknown)
   * @param field - path of the offending field, e.g. "data.bid"
   * @param reason - what was wrong, e.g. 'must be a decimal string, got 12'
   */
  constructor(channel: string, sym: string, field: string, reason: string) {
    super(`${channel} message for ${sym}: ${field} ${reason}`);
    this.name = 'MarketDataDecodeError';
    this.channel = channel;
    this.sym = sym;
    this.field = field;
    this.reason = reason;
  }
}
