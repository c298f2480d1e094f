import { gzipSync } from 'node:zlib';
import type { WebSocket } from 'ws';
import type { TimerPort } from '../../core/venue/index.ts';
import { isJsonObject } from './json-object.ts';
import type { FeedItem } from './market-feed.ts';
import { sendToReader } from './slow-consumer.ts';

/** Channels of the public market-data socket (per public venue docs). */
export const PUBLIC_CHANNELS: ReadonlySet<string> = new Set([
  'BBO',
  'TICKER',
  'TRADE',
  'ORDER_BOOK',
  'KLINE',
  'MARK_PRICE',
  'INDEX_PRICE',
  'OPEN_INTEREST',
]);

/** Channels only a perpetual has (per public venue docs: "for perpetuals MARK_PRICE, INDEX_PRICE, OPEN_INTEREST"). */
export const PERPETUAL_CHANNELS: ReadonlySet<string> = new Set([
  'MARK_PRICE',
  'INDEX_PRICE',
  'OPEN_INTEREST',
]);

/** Subscribe messages a connection may send per second before 11260 (Keel's choice: the docs name the code, not the rate). */
export const SUBSCRIBE_MESSAGES_PER_SECOND = 20;

/** What a market-data session needs from the venue. */
export interface MarketDataDeps {
  readonly syms: ReadonlySet<string>;
  /** The perpetuals among them: only they have the {@link PERPETUAL_CHANNELS}. */
  readonly perpetuals: ReadonlySet<string>;
  readonly timer: TimerPort;
  /** Keel's paper-venue extension: the client processed market events up to seq. */
  lockstepAck(seq: number): void;
}

/**
 * One connection at `/marketdata/v2/public`: subscriptions, gzip or plain frames, `{"ping"}`
 * heartbeat. An unknown sym or channel, or a perpetual-only channel of another sym, is refused with
 * 11100 (per public venue docs: "11100 invalid symbol"), so no ack promises a stream that never comes.
 */
export class MarketDataSession {
  private readonly subscriptions = new Set<string>();
  private recent: number[] = [];

  /**
   * @param ws - the socket
   * @param binary - gzip frames (default) or plain JSON text (`?binary=false`)
   * @param deps - the venue's services
   */
  constructor(
    readonly ws: WebSocket,
    readonly binary: boolean,
    private readonly deps: MarketDataDeps,
  ) {
    ws.on('message', (data) => this.onMessage(String(data)));
  }

  /**
   * Whether this connection subscribed to a channel of a sym.
   * @param channel - e.g. BBO
   * @param sym - the symbol
   * @returns true when subscribed
   */
  wants(channel: string, sym: string): boolean {
    return this.subscriptions.has(`${channel}|${sym}`);
  }

  /**
   * Sends a frame in this connection's encoding.
   * @param text - plain JSON text
   * @param gzipped - the same text gzipped (computed once per push for every binary connection)
   */
  sendFrame(text: string, gzipped: () => Buffer): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    sendToReader(this.ws, this.binary ? gzipped() : text, this.binary);
  }

  private send(body: unknown): void {
    const text = JSON.stringify(body);
    this.sendFrame(text, () => gzipSync(text));
  }

  private onMessage(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.send({ event: 'error', code: 400001, msg: 'the frame is not JSON' });
      return;
    }
    if (!isJsonObject(message)) {
      this.send({ event: 'error', code: 400001, msg: 'the frame is not a JSON object' });
      return;
    }
    if (typeof message.ping === 'number') {
      this.send({ pong: message.ping });
      return;
    }
    if (message.event === 'lockstep_ack') {
      const seq = Number(message.seq);
      if (Number.isSafeInteger(seq) && seq >= 0) this.deps.lockstepAck(seq);
      return;
    }
    if (message.event !== 'subscribe' && message.event !== 'unsubscribe') {
      this.send({ event: 'error', code: 400001, msg: 'event must be subscribe or unsubscribe' });
      return;
    }
    const now = this.deps.timer.now();
    this.recent = this.recent.filter((t) => t > now - 1000);
    if (this.recent.length >= SUBSCRIBE_MESSAGES_PER_SECOND) {
      this.send({
        event: 'error',
        code: 11260,
        msg: `rate limit: at most ${SUBSCRIBE_MESSAGES_PER_SECOND} subscribe messages per second`,
      });
      return;
    }
    this.recent.push(now);
    const entries: readonly unknown[] = Array.isArray(message.arg) ? message.arg : [];
    const streams = entries.filter((entry) => this.offers(entry));
    if (entries.length === 0 || streams.length < entries.length) {
      const bad = entries.find((entry) => !this.offers(entry));
      const what =
        bad === undefined
          ? 'an empty arg list'
          : isJsonObject(bad)
            ? `${String(bad.channel)} ${String(bad.sym)}`
            : JSON.stringify(bad);
      this.send({ event: 'error', code: 11100, msg: `invalid symbol or channel: ${what}` });
      return;
    }
    for (const { channel, sym } of streams) {
      const key = `${channel}|${sym}`;
      if (message.event === 'subscribe') this.subscriptions.add(key);
      else this.subscriptions.delete(key);
    }
    this.send({ event: message.event, arg: entries, code: 0, msg: '' });
  }

  /** Whether an arg entry names a stream this venue has: a known channel of a known sym. */
  private offers(entry: unknown): entry is { readonly channel: string; readonly sym: string } {
    return (
      isJsonObject(entry) &&
      typeof entry.channel === 'string' &&
      PUBLIC_CHANNELS.has(entry.channel) &&
      typeof entry.sym === 'string' &&
      this.deps.syms.has(entry.sym) &&
      (!PERPETUAL_CHANNELS.has(entry.channel) || this.deps.perpetuals.has(entry.sym))
    );
  }
}

/** What a lockstep market push carries besides the venue's fields (Keel's extension). */
export interface LockstepStamp {
  /** The seq of the event the push comes from. */
  readonly seq: number;
  /** How many frames the lockstep client's private connection was sent before it; undefined = none known. */
  readonly privateSent: number | undefined;
}

/**
 * Sends a released market event to every connection subscribed to its channel and sym.
 * @param sessions - the open market-data connections
 * @param item - the event and its wire push
 * @param stamp - in lockstep mode, what is written into the push (Keel's extension); undefined otherwise
 * @returns how many connections received it
 */
export function broadcast(
  sessions: Iterable<MarketDataSession>,
  item: FeedItem,
  stamp: LockstepStamp | undefined,
): number {
  const arg = item.wire.arg as { channel?: string; sym?: string } | undefined;
  const channel = arg?.channel ?? '';
  const sym = arg?.sym ?? item.event.sym;
  let text: string | undefined;
  let gzipped: Buffer | undefined;
  let delivered = 0;
  for (const session of sessions) {
    if (!session.wants(channel, sym)) continue;
    text ??= JSON.stringify(stamp === undefined ? item.wire : { ...item.wire, ...stamp });
    const plain = text;
    session.sendFrame(plain, () => {
      gzipped ??= gzipSync(plain);
      return gzipped;
    });
    delivered++;
  }
  return delivered;
}
