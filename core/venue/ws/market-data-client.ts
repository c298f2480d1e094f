import { type Logger, pino } from 'pino';
import { type Observable, Subject } from 'rxjs';
import WebSocket from 'ws';
import type { GapEvent, MarketEvent, VenueStatus } from '../../model/index.ts';
import type { MarketDataChannel } from '../market-data/index.ts';
import { ServerClock } from '../server-clock.ts';
import { backoffDelay, type JitterSource, realTimer, type TimerPort } from '../timer-port.ts';
import { closeSocket } from './close-socket.ts';
import { DEFAULT_HEARTBEAT, Heartbeat } from './heartbeat.ts';
import { createInboundCounters, type InboundCounters, type RawInboundFrame } from './inbound-counters.ts';
import { classifyMarketFrame, marketFrameText } from './market-frame.ts';
import { armOpenDeadline, DEFAULT_OPEN_TIMEOUT_MS } from './open-deadline.ts';
import type { ReconnectPolicy } from './private-ws-options.ts';
import { RepeatedProblemLog } from './repeated-problem-log.ts';
import { StreamStatus } from './stream-status.ts';
import { unexpectedQuote } from './unexpected-quotes.ts';
import { ClientClosedError } from './ws-errors.ts';

/** One market-data subscription: a channel of a sym (KLINE also takes an interval). */
export interface MarketSubscription {
  readonly channel: MarketDataChannel;
  readonly sym: string;
  readonly interval?: string;
}

/** Options of the market-data client. */
export interface MarketDataOptions {
  /** e.g. `wss://host/marketdata/v2/public` (path per public venue docs). */
  readonly url: string;
  /** true (default): gzip binary frames; false: plain JSON text via `?binary=false`. */
  readonly binary?: boolean;
  readonly timer?: TimerPort;
  /**
   * The venue's clock as the REST client estimates it (share the live venue's): the gap events
   * and status changes the client makes itself are stamped on it, so they carry the venue's time,
   * not the machine's. Default: the local clock (`timer`).
   */
  readonly serverClock?: ServerClock;
  /**
   * What those gap events and status changes, and the `recvTs` of every market event, are stamped
   * with instead (the session's clock, see `LiveExecutionOptions.eventClock`): a paper session's
   * replay time, a live session's venue-clock estimate, the clock `ctx.now()` reads and its
   * recording stamps frames with. Default `serverClock`.
   */
  readonly eventClock?: () => number;
  readonly random?: JitterSource;
  /** Interval of the client's `{"ping": ms}` heartbeat. Default 5 000 ms (see `DEFAULT_HEARTBEAT`). */
  readonly heartbeatMs?: number;
  /**
   * The stall watchdog: when no frame at all (data, `{"pong"}`, control) came for this many
   * heartbeat intervals, the socket is taken for dead although it is open: a warning, then it is
   * dropped and reconnected (resubscribed, with a gap from the last frame). Keel's choice, default
   * 3 (as the private socket): the venue answers every ping, so a live socket is never silent for
   * that long. At least 2.
   */
  readonly silentHeartbeats?: number;
  /** Default 500 ms doubling to 30 s. */
  readonly reconnect?: ReconnectPolicy;
  /**
   * How long each connection attempt may take to open (TCP and WebSocket upgrade) before it is
   * abandoned and the reconnect backoff goes on. Default 10 000 ms.
   */
  readonly openTimeoutMs?: number;
  readonly logger?: Logger;
  readonly counters?: InboundCounters;
  /** Recorder tap: every inbound frame, gunzipped. */
  readonly onRaw?: (raw: RawInboundFrame) => void;
  /**
   * Holds each inbound frame until it may be handled, keeping their order: the frame (tap
   * included) is handled when `handle` is called. Absent: every frame is handled at once.
   */
  readonly gate?: MarketFrameGate;
}

/**
 * Holds an inbound market-data frame until it may be handled, e.g. until what the venue sent
 * before it on another connection arrived (Keel's lockstep paper venue).
 * @param text - the frame's text, gunzipped
 * @param handle - handles the frame; call it once, frames in the order they were given
 */
export type MarketFrameGate = (text: string, handle: () => void) => void;

function keyOf(sub: MarketSubscription): string {
  return `${sub.channel}|${sub.sym}|${sub.interval ?? ''}`;
}

function argOf(sub: MarketSubscription): Record<string, string> {
  return {
    channel: sub.channel,
    sym: sub.sym,
    ...(sub.interval === undefined ? {} : { interval: sub.interval }),
  };
}

/**
 * The public market-data WebSocket: subscribe / unsubscribe per channel and sym, gzip or text
 * frames, `{"ping"}` / `{"pong"}` heartbeat with a watchdog that drops a socket silent for
 * `silentHeartbeats` intervals, and after a reconnect a resubscription plus one gap event per
 * subscribed sym, so strategies and recordings know data was missed. {@link status} reports each
 * drop (`down`) and return (`up`).
 */
export class MarketDataClient {
  /** Counts of inbound frames by outcome. */
  readonly counters: InboundCounters;
  private readonly subject = new Subject<MarketEvent>();
  private readonly subscriptions = new Map<string, MarketSubscription>();
  private readonly timer: TimerPort;
  /**
   * Where the events the client makes itself, and the receive time of every frame, are stamped:
   * the venue's time, or the session's clock.
   */
  private readonly eventNow: () => number;
  private readonly random: JitterSource;
  private readonly logger: Logger;
  /** Malformed frames: the first of each problem logged, the repeats summarized. */
  private readonly malformedLog: RepeatedProblemLog;
  /** BBOs of a sym not subscribed to, or crossed: the first of each kind logged, the repeats summarized. */
  private readonly unexpectedLog: RepeatedProblemLog;
  /** The syms of the subscriptions, read on every BBO. */
  private subscribedSyms = new Set<string>();
  private socket: WebSocket | undefined;
  private closing = false;
  private attempt = 0;
  /** The venue's time when the socket dropped: the start of the gap. */
  private droppedAt: number | undefined;
  /** The receive time of the last frame (or the open), epoch ms: where a stall's gap starts. */
  private lastInbound = 0;
  private readonly streamStatus: StreamStatus;
  /** The `{"ping"}` and the stall watchdog, from each open to the drop. */
  private readonly heartbeat: Heartbeat;
  private cancelReconnect: () => void = () => {};

  /** @param options - address, frame format and policies */
  constructor(private readonly options: MarketDataOptions) {
    this.timer = options.timer ?? realTimer();
    this.random = options.random ?? { next: () => 0.5 };
    this.logger = options.logger ?? pino({ name: 'keel.venue.market-data', level: 'warn' });
    this.counters = options.counters ?? createInboundCounters();
    const serverClock = options.serverClock ?? new ServerClock(this.timer, this.logger);
    this.eventNow = options.eventClock ?? (() => serverClock.now());
    this.streamStatus = new StreamStatus('market', this.eventNow);
    this.malformedLog = new RepeatedProblemLog(this.logger, this.timer, 'malformed market-data frame');
    this.unexpectedLog = new RepeatedProblemLog(this.logger, this.timer, 'unexpected market-data frame');
    this.heartbeat = new Heartbeat(
      this.timer,
      {
        intervalMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT.intervalMs,
        silentIntervals: options.silentHeartbeats ?? DEFAULT_HEARTBEAT.silentIntervals,
      },
      {
        ping: () => {
          if (this.socket?.readyState === WebSocket.OPEN)
            this.socket.send(JSON.stringify({ ping: this.timer.now() }));
        },
        silent: (silentMs) => this.stalled(silentMs),
      },
    );
  }

  /** The socket's connection changes: `up` when it (re)opened and resubscribed, `down` when it dropped or stalled. */
  get status(): Observable<VenueStatus> {
    return this.streamStatus.changes;
  }

  /** Market events of every subscription, plus gap events after reconnects. */
  get events(): Observable<MarketEvent> {
    return this.subject.asObservable();
  }

  /**
   * Opens the connection and sends the current subscriptions; reconnects by itself until closed.
   * @returns when the socket is open
   * Once closed the client stays closed: a stop that came while a start was still on its way to
   * this call wins over it.
   * @throws VenueTimeoutError when the socket did not open within `openTimeoutMs`, Error when it
   *   closed before it opened, ClientClosedError when {@link close} was called before
   */
  connect(): Promise<void> {
    if (this.closing) return Promise.reject(new ClientClosedError('market-data WebSocket'));
    return this.open();
  }

  /**
   * Subscribes (now if connected, and again after every reconnect).
   * @param sub - channel, sym and optional kline interval
   */
  subscribe(sub: MarketSubscription): void {
    this.subscribeAll([sub]);
  }

  /**
   * Subscribes to several at once, in one message (now if connected, and again after every
   * reconnect, as {@link subscribe}): a venue limits subscribe messages per second (11260), so a
   * session's many subscriptions go together, as a reconnect sends them.
   * @param subs - the subscriptions
   */
  subscribeAll(subs: readonly MarketSubscription[]): void {
    for (const sub of subs) this.subscriptions.set(keyOf(sub), sub);
    this.subscribedSyms = symsOf(this.subscriptions);
    this.sendControl('subscribe', subs);
  }

  /**
   * Unsubscribes.
   * @param sub - the subscription to drop
   */
  unsubscribe(sub: MarketSubscription): void {
    this.subscriptions.delete(keyOf(sub));
    this.subscribedSyms = symsOf(this.subscriptions);
    this.sendControl('unsubscribe', [sub]);
  }

  /**
   * Closes for good.
   * @param withinMs - how long the venue may take to answer the close; then the connection is
   *   dropped. Default: the WebSocket library's own 30 s.
   * @returns when closed
   */
  async close(withinMs?: number): Promise<void> {
    this.closing = true;
    this.malformedLog.flush();
    this.unexpectedLog.flush();
    this.cancelReconnect();
    this.heartbeat.stop();
    const socket = this.socket;
    this.socket = undefined;
    await closeSocket(socket, withinMs);
    this.streamStatus.complete();
  }

  private url(): string {
    if (this.options.binary ?? true) return this.options.url;
    return `${this.options.url}${this.options.url.includes('?') ? '&' : '?'}binary=false`;
  }

  private sendControl(event: 'subscribe' | 'unsubscribe', subs: readonly MarketSubscription[]): void {
    if (this.socket?.readyState !== WebSocket.OPEN || subs.length === 0) return;
    this.socket.send(JSON.stringify({ event, arg: subs.map(argOf) }));
  }

  private open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url(), { perMessageDeflate: false });
      this.socket = socket;
      const openTimeoutMs = this.options.openTimeoutMs ?? DEFAULT_OPEN_TIMEOUT_MS;
      armOpenDeadline(
        socket,
        this.timer,
        openTimeoutMs,
        'market-data WebSocket opening handshake',
        (error) => {
          this.logger.warn(
            { openTimeoutMs },
            'market-data WebSocket did not open in time: abandoning the attempt',
          );
          reject(error);
        },
      );
      socket.on('message', (data, isBinary) => this.receive(data as Buffer, isBinary));
      socket.on('error', (error) => this.logger.warn({ err: error.message }, 'market-data WebSocket error'));
      socket.on('close', () => {
        if (this.socket === socket) this.onDropped();
        reject(new Error('market-data WebSocket closed before it opened'));
      });
      socket.on('open', () => {
        this.attempt = 0;
        this.lastInbound = this.eventNow();
        this.heartbeat.start();
        this.sendControl('subscribe', [...this.subscriptions.values()]);
        const missedMs =
          this.droppedAt === undefined ? undefined : Math.round(this.eventNow() - this.droppedAt);
        if (missedMs !== undefined)
          this.logger.info(
            { missedMs, subscriptions: this.subscriptions.size },
            'market-data WebSocket reconnected and resubscribed',
          );
        this.emitGaps();
        this.streamStatus.set(
          'up',
          missedMs === undefined ? undefined : `reconnected and resubscribed; ${missedMs} ms of data missed`,
        );
        resolve();
      });
    });
  }

  private emitGaps(): void {
    if (this.droppedAt === undefined) return;
    const now = this.eventNow();
    const syms = new Set([...this.subscriptions.values()].map((sub) => sub.sym));
    for (const sym of syms) {
      const gap: GapEvent = {
        kind: 'gap',
        sym,
        ts: now,
        recvTs: now,
        fromTs: this.droppedAt,
        reason: 'market-data WebSocket reconnected: data between fromTs and ts was missed',
      };
      this.subject.next(gap);
    }
    this.droppedAt = undefined;
  }

  /**
   * The socket is open but nothing came, not even a pong: the data is stale. The gap runs from
   * the last frame; the socket is dropped now (not waiting for its close handshake) and the
   * reconnect follows as after any drop.
   * @param silentMs - how long nothing came
   */
  private stalled(silentMs: number): void {
    const socket = this.socket;
    if (socket === undefined) return;
    const silentHeartbeats = this.heartbeat.policy.silentIntervals;
    const reason = `silent for ${silentMs} ms (${silentHeartbeats} heartbeat intervals without a frame or pong)`;
    this.logger.warn({ silentMs }, `market-data WebSocket ${reason}: dropping and reconnecting`);
    this.droppedAt ??= this.lastInbound;
    this.onDropped(reason);
    socket.terminate();
  }

  /**
   * Handles one inbound frame: the socket calls it for every message; a replay of a recorded
   * session (or a test) may call it too. Never throws: bad frames are logged and counted.
   * @param data - the payload (gzip when binary)
   * @param isBinary - whether it came as a binary frame
   * @param recvTs - receive time; default now on the clock the client stamps its own events with
   *   (`eventClock`: the session's, so a strategy compares it with `ctx.now()` as in a backtest)
   */
  receive(data: Buffer | string, isBinary: boolean, recvTs = this.eventNow()): void {
    this.lastInbound = recvTs;
    this.heartbeat.heard();
    this.counters.frames++;
    const text = marketFrameText(data, isBinary);
    if (text === undefined) {
      this.counters.malformed++;
      this.malformedLog.report('binary frame is not gzip');
      return;
    }
    const gate = this.options.gate;
    if (gate === undefined) this.handle(text, recvTs);
    else gate(text, () => this.handle(text, this.eventNow()));
  }

  private handle(text: string, recvTs: number): void {
    this.options.onRaw?.({ source: 'market', text, recvTs });
    const frame = classifyMarketFrame(text, recvTs);
    switch (frame.kind) {
      case 'event': {
        const unexpected = unexpectedQuote(frame.event, this.subscribedSyms);
        if (unexpected === undefined) this.counters.pushes++;
        else {
          this.counters.unexpected++;
          this.unexpectedLog.report(unexpected.problem);
          if (unexpected.drop) return;
        }
        this.subject.next(frame.event);
        return;
      }
      case 'ping':
        this.counters.heartbeats++;
        this.socket?.send(JSON.stringify({ pong: frame.ping }));
        return;
      case 'pong':
        this.counters.heartbeats++;
        return;
      case 'control':
        this.counters.control++;
        if (frame.code !== 0)
          this.logger.warn({ code: frame.code, message: frame.message }, 'market-data request refused');
        return;
      case 'malformed':
        this.counters.malformed++;
        this.malformedLog.report(frame.problem);
    }
  }

  private onDropped(reason = 'the connection closed'): void {
    this.socket = undefined;
    this.heartbeat.stop();
    this.droppedAt ??= this.eventNow();
    if (this.closing) return;
    this.streamStatus.set('down', reason);
    const policy = this.options.reconnect ?? { baseMs: 500, capMs: 30_000 };
    const delay = backoffDelay(this.attempt++, policy.baseMs, policy.capMs, this.random);
    this.logger.warn({ delay, reason }, 'market-data WebSocket dropped: reconnecting');
    this.cancelReconnect = this.timer.setTimer(() => {
      if (this.closing) return;
      this.open().catch((error: Error) =>
        this.logger.warn({ err: error.message }, 'market-data reconnect failed'),
      );
    }, delay);
  }
}

/** The syms a client's subscriptions name, for the check of every BBO. */
function symsOf(subscriptions: ReadonlyMap<string, MarketSubscription>): Set<string> {
  return new Set([...subscriptions.values()].map((sub) => sub.sym));
}
