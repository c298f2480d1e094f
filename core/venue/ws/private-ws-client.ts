import { type Logger, pino } from 'pino';
import { type Observable, Subject } from 'rxjs';
import WebSocket from 'ws';
import type { UserEvent } from '../../model/index.ts';
import { VenueError, VenueTimeoutError } from '../errors.ts';
import type { NamedOrder } from '../mapping/order-mapping.ts';
import { RateLimiter } from '../rest/rate-limiter.ts';
import { ServerClock } from '../server-clock.ts';
import { loginSignaturePayload } from '../signing.ts';
import { backoffDelay, type JitterSource, monotonicOf, realTimer, type TimerPort } from '../timer-port.ts';
import { PLACE_ORDER_ACTION, PRIVATE_PING, type WsReplyWire } from '../wire/ws-envelope.ts';
import { closeSocket } from './close-socket.ts';
import { DEFAULT_HEARTBEAT, Heartbeat } from './heartbeat.ts';
import { createInboundCounters, type InboundCounters } from './inbound-counters.ts';
import { LoginClockRelearning } from './login-clock-relearning.ts';
import { armOpenDeadline, DEFAULT_OPEN_TIMEOUT_MS } from './open-deadline.ts';
import { type LateReply, PendingRequests } from './pending-requests.ts';
import { classifyPrivateFrame, reportBadEntries } from './private-frame.ts';
import {
  type ConnectionEvent,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type PrivateWsOptions,
  type RequestOptions,
} from './private-ws-options.ts';
import { RepeatedProblemLog } from './repeated-problem-log.ts';
import {
  ClientClosedError,
  ConnectionLostError,
  ConnectionNotOpenedError,
  NotConnectedError,
} from './ws-errors.ts';

/**
 * The actions the venue's place-order limit counts (per public venue docs, "WebSocket place order
 * 1200 per 60 s"): cancels and amendments are not counted, and wait only for the places queued
 * before them.
 */
const PLACE_ACTIONS: ReadonlySet<string> = new Set([PLACE_ORDER_ACTION, 'place_order']);

/**
 * The private WebSocket: login, keep-alive, request / reply correlation by id with timeouts,
 * User Data decoded into model events, and reconnection with capped exponential backoff.
 */
export class PrivateWsClient {
  /** Counts of inbound frames by outcome. */
  readonly counters: InboundCounters;
  private readonly userEventsSubject = new Subject<UserEvent>();
  private readonly unknownStateOrdersSubject = new Subject<NamedOrder>();
  private readonly connectionSubject = new Subject<ConnectionEvent>();
  private readonly pending: PendingRequests;
  private readonly timer: TimerPort;
  /**
   * Where the login timestamp is read, and the connection events stamped: the venue's clock as the
   * REST client learns it, else the local one.
   */
  private readonly serverClock: ServerClock;
  private readonly clockRelearning: LoginClockRelearning;
  private readonly random: JitterSource;
  private readonly logger: Logger;
  /** Malformed frames and entries, and unexpected frames: the first of each problem logged, the repeats summarized. */
  private readonly malformedLog: RepeatedProblemLog;
  private readonly unexpectedLog: RepeatedProblemLog;
  private readonly nextId: () => string;
  private socket: WebSocket | undefined;
  private loggedIn = false;
  private closing = false;
  private everLoggedIn = false;
  private attempt = 0;
  /** The text `ping` and the silence watchdog, from each login to the drop. */
  private readonly heartbeat: Heartbeat;
  private cancelReconnect: () => void = () => {};
  private readonly placeLimiter: RateLimiter | undefined;
  /** The room the last place waiting for the limit was given: later actions go after it. */
  private lastQueuedPlace: Promise<void> = Promise.resolve();

  /** @param options - address, signer and policies */
  constructor(private readonly options: PrivateWsOptions) {
    this.timer = options.timer ?? realTimer();
    this.random = options.random ?? { next: () => 0.5 };
    this.logger = options.logger ?? pino({ name: 'keel.venue.private-ws', level: 'warn' });
    this.counters = options.counters ?? createInboundCounters();
    this.serverClock = options.serverClock ?? new ServerClock(this.timer, this.logger);
    this.clockRelearning = new LoginClockRelearning(options.refreshServerClock, this.logger);
    this.malformedLog = new RepeatedProblemLog(
      this.logger,
      this.timer,
      'malformed private WebSocket frame or entry dropped',
    );
    this.unexpectedLog = new RepeatedProblemLog(
      this.logger,
      this.timer,
      'unexpected private WebSocket frame',
    );
    this.pending = new PendingRequests(this.timer);
    this.heartbeat = new Heartbeat(
      this.timer,
      {
        intervalMs: options.pingIntervalMs ?? DEFAULT_HEARTBEAT.intervalMs,
        silentIntervals: options.silentPings ?? DEFAULT_HEARTBEAT.silentIntervals,
      },
      {
        ping: () => this.socket?.send(PRIVATE_PING),
        silent: (silentMs, probed) => this.silent(silentMs, probed),
      },
    );
    let seq = 0;
    this.nextId = options.requestIds ?? (() => String(++seq));
    const rate =
      options.orderRateLimit === undefined ? { limit: 1200, windowMs: 60_000 } : options.orderRateLimit;
    this.placeLimiter = rate === null ? undefined : new RateLimiter(rate, this.timer);
  }

  /** User Data events (orders, trades, positions, assets, accounts, liquidation). */
  get userEvents(): Observable<UserEvent> {
    return this.userEventsSubject.asObservable();
  }

  /**
   * The orders of pushed order updates dropped for a state Keel does not know (each also logged
   * and counted as malformed): only a lookup tells what became of them.
   */
  get unknownStateOrders(): Observable<NamedOrder> {
    return this.unknownStateOrdersSubject.asObservable();
  }

  /** Login and drop notifications; reconciliation hangs on `loggedIn`. */
  get connection(): Observable<ConnectionEvent> {
    return this.connectionSubject.asObservable();
  }

  /** Whether the connection is logged in and can carry requests. */
  get isLoggedIn(): boolean {
    return this.loggedIn;
  }

  /**
   * Opens the connection and logs in; afterwards reconnects by itself until {@link close}. Once
   * closed the client stays closed: a stop that came while a start was still on its way to this
   * call wins over it.
   * @returns when the first login succeeded
   * @throws VenueError when the venue refuses the login (60009), VenueTimeoutError when the socket
   *   did not open within `openTimeoutMs` or the login got no reply, ConnectionNotOpenedError
   *   when the connection closed before it opened (refused: the login was not sent),
   *   ConnectionLostError when it dropped after the login was sent, before its reply,
   *   ClientClosedError when {@link close} was called before or meanwhile
   */
  connect(): Promise<void> {
    if (this.closing) return Promise.reject(new ClientClosedError('private WebSocket'));
    return this.open();
  }

  /**
   * Sends a request envelope and waits for the reply with the same id. A place order waits for
   * room in the place-order limit first; cancels and amendments take no room in it and go out at
   * once, or, while places wait, right after the places sent before them.
   * @param action - `PLACE_ORDER`, `place_order`, `replace_order`, `cancel_order`, `cancel_orders`
   * @param args - the arguments
   * @param options - the reply timeout (default the client's), and what takes a reply that comes
   *   after it
   * @returns the reply when its code is 0
   * @throws NotConnectedError (not sent), VenueError (code != 0), VenueTimeoutError (no reply),
   *   ConnectionLostError (sent, then the connection dropped)
   */
  request(action: string, args: object, options: RequestOptions = {}): Promise<WsReplyWire> {
    const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const late = options.onLateReply;
    const id = this.nextId();
    const what = `${action} id ${id}`;
    if (!this.loggedIn || this.socket === undefined) return Promise.reject(new NotConnectedError(what));
    const frame = JSON.stringify({ action, id, args });
    const isPlace = PLACE_ACTIONS.has(action);
    const limiter = isPlace ? this.placeLimiter : undefined;
    if (!isPlace && (this.placeLimiter?.queued ?? 0) > 0) {
      // A cancel or amendment sent while places wait for the limit goes after them, as sent: it
      // may act on one of them (or, a sym-wide cancel, on all), and reaching the venue first it
      // would leave that place to rest live once it goes out.
      return this.lastQueuedPlace
        .catch(() => undefined)
        .then(() => {
          if (!this.loggedIn) throw new NotConnectedError(what);
          return this.send(id, what, frame, timeoutMs, action, late);
        });
    }
    if (limiter === undefined || limiter.tryAcquire()) {
      return this.send(id, what, frame, timeoutMs, action, late);
    }
    // Said once per episode (the first place to wait): a strategy over the venue's place rate
    // is delayed, not refused, and an operator should know why its orders go out late.
    if (limiter.queued === 0)
      this.logger.warn(
        { limit: limiter.rate.limit, windowMs: limiter.rate.windowMs, action },
        'place-order rate limit reached: place orders wait for room in the window',
      );
    const turn = limiter.acquire();
    this.lastQueuedPlace = turn;
    return turn.then(
      () => {
        if (!this.loggedIn) throw new NotConnectedError(what);
        return this.send(id, what, frame, timeoutMs, action, late);
      },
      // The client closed while it waited (see `close`): it was never sent.
      () => {
        throw new NotConnectedError(what);
      },
    );
  }

  /**
   * Sends a frame that gets no reply (e.g. the paper venue's `lockstep_ack`), in order with the
   * requests sent before it and outside the order rate limit. Not for orders: they need replies.
   * @param action - the frame's action
   * @param args - its arguments
   * @returns false when not logged in (nothing sent)
   */
  notify(action: string, args: object): boolean {
    if (!this.loggedIn || this.socket === undefined) return false;
    this.socket.send(JSON.stringify({ action, args }));
    return true;
  }

  /**
   * Closes the connection for good (no reconnect); pending requests fail with ConnectionLostError,
   * and place orders still waiting for the place-order rate limit with NotConnectedError.
   * @param withinMs - how long the venue may take to answer the close; then the connection is
   *   dropped. Default: the WebSocket library's own 30 s.
   * @returns when the socket is closed
   */
  async close(withinMs?: number): Promise<void> {
    this.closing = true;
    this.malformedLog.flush();
    this.unexpectedLog.flush();
    this.cancelReconnect();
    this.heartbeat.stop();
    const socket = this.socket;
    this.socket = undefined;
    this.loggedIn = false;
    this.pending.failAll();
    // Places waiting for room in the window are refused now, not when the window frees: a
    // closed client sends nothing, and their wake-up timer would keep the process alive.
    this.placeLimiter?.close(new Error('the private WebSocket client is closed'));
    await closeSocket(socket, withinMs);
  }

  private send(
    id: string,
    what: string,
    frame: string,
    timeoutMs: number,
    action?: string,
    onLateReply?: (late: LateReply) => void,
  ): Promise<WsReplyWire> {
    const sentAt = monotonicOf(this.timer);
    const reply = this.pending.wait(id, what, timeoutMs, action, () => this.socket?.send(frame), onLateReply);
    reply.catch((error: unknown) => {
      if (error instanceof VenueTimeoutError) this.unanswered(what, sentAt);
    });
    return reply;
  }

  /**
   * A request got no reply in time: when nothing at all came since it was sent either, the link
   * is probed (see `Heartbeat.probe`), so a dead one is dropped one ping interval later rather
   * than at the end of the silence limit.
   * @param what - the request
   * @param sentAt - when it was sent, on the timer's monotonic reading
   */
  private unanswered(what: string, sentAt: number): void {
    if (!this.heartbeat.probe(sentAt)) return;
    this.logger.warn(
      { request: what, probeMs: this.heartbeat.policy.intervalMs },
      'private WebSocket: a request got no reply and nothing came since it was sent: pinging, and dropping the socket unless a frame comes within one ping interval',
    );
  }

  private async open(): Promise<void> {
    await this.clockRelearning.beforeAttempt();
    if (this.closing) throw new ClientClosedError('private WebSocket');
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.options.url, { perMessageDeflate: false });
      this.socket = socket;
      const openTimeoutMs = this.options.openTimeoutMs ?? DEFAULT_OPEN_TIMEOUT_MS;
      armOpenDeadline(socket, this.timer, openTimeoutMs, 'private WebSocket opening handshake', (error) => {
        this.logger.warn({ openTimeoutMs }, 'private WebSocket did not open in time: abandoning the attempt');
        reject(error);
      });
      socket.on('message', (data, isBinary) =>
        this.receive(isBinary ? (data as Buffer).toString('utf8') : String(data)),
      );
      // What the attempt came to, for its rejection: whether the login went out, and the socket's error.
      let opened = false;
      let failure: string | undefined;
      socket.on('error', (error) => {
        failure ??= error.message;
        this.logger.warn({ err: error.message }, 'private WebSocket error');
      });
      socket.on('close', (code) => {
        if (this.socket === socket) this.onDropped(`closed with code ${code}`);
        reject(this.attemptEnded(opened, failure ?? `closed with code ${code}`));
      });
      socket.on('open', () => {
        opened = true;
        this.login().then(resolve, (error: Error) => {
          reject(error);
          socket.terminate();
        });
      });
    });
  }

  /**
   * Why a connection attempt ended without a login: the client's own close, the connection
   * closing before it opened (so the login was never sent: refused, unreachable), or after (the
   * login sent, its reply lost).
   * @param opened - whether the socket opened (the login goes out as it does)
   * @param why - the socket's error, else its close code
   * @returns the attempt's error
   */
  private attemptEnded(opened: boolean, why: string): Error {
    if (this.closing) return new ClientClosedError('private WebSocket');
    if (!opened) return new ConnectionNotOpenedError('private WebSocket login', why);
    return new ConnectionLostError('private WebSocket login');
  }

  private async login(): Promise<void> {
    const timestamp = String(this.serverClock.nowSeconds());
    const args = {
      apiKey: this.options.signer.apiKey,
      timestamp,
      sign: this.options.signer.sign(loginSignaturePayload(timestamp)),
      onlyTrade: this.options.onlyTrade ?? false,
    };
    const timeoutMs = this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const reply = await this.send('login', 'login', JSON.stringify({ action: 'login', args }), timeoutMs);
    if (reply.code !== 0) {
      const message = reply.msg ?? reply.message ?? '';
      this.clockRelearning.refused(reply.code, this.serverClock.offsetMs, message);
      throw new VenueError({
        code: reply.code,
        message,
        method: 'WS',
        path: 'login',
      });
    }
    this.loggedIn = true;
    this.attempt = 0;
    const reconnect = this.everLoggedIn;
    this.everLoggedIn = true;
    this.heartbeat.start();
    if (reconnect) this.logger.info('private WebSocket reconnected and logged in again');
    this.connectionSubject.next({ kind: 'loggedIn', reconnect, ts: this.serverClock.now() });
  }

  /**
   * The socket is open but nothing came, not even a pong, for the heartbeat's limit: the link is
   * taken for dead. The drop is reported now (the stream `down`, pending requests failed), not
   * when the close handshake would end, and the reconnect follows as after any drop.
   * @param silentMs - how long nothing came
   * @param probed - whether a request went unanswered and the ping that followed it too
   */
  private silent(silentMs: number, probed: boolean): void {
    const socket = this.socket;
    if (socket === undefined) return;
    const intervals = this.heartbeat.policy.silentIntervals;
    const why = probed
      ? 'a request got no reply, then a ping got no pong'
      : `${intervals} ping intervals without a frame or pong`;
    const reason = `silent for ${silentMs} ms (${why})`;
    this.logger.warn({ silentMs }, `private WebSocket ${reason}: dropping and reconnecting`);
    this.onDropped(reason);
    socket.terminate();
  }

  /**
   * Handles one inbound frame: the socket calls it for every message; a replay of a recorded
   * session (or a test) may call it too. Never throws: bad frames are logged and counted.
   * @param text - the frame text
   * @param recvTs - local receive time; default now
   */
  receive(text: string, recvTs = this.timer.now()): void {
    this.heartbeat.heard();
    this.counters.frames++;
    this.options.onRaw?.({ source: 'private', text, recvTs });
    const frame = classifyPrivateFrame(text, recvTs);
    switch (frame.kind) {
      case 'pong':
        this.counters.heartbeats++;
        return;
      case 'reply': {
        const match = this.pending.answer(frame.reply);
        if (match !== 'unmatched') {
          this.counters.replies++;
          if (match === 'late')
            this.logger.info(
              { event: frame.reply.event, id: frame.reply.id, code: frame.reply.code },
              'late reply to a request that timed out: handed to its sender',
            );
          return;
        }
        this.counters.unmatchedReplies++;
        this.logger.warn(
          { event: frame.reply.event, id: frame.reply.id },
          'reply matches no pending request',
        );
        return;
      }
      case 'events':
        this.counters.pushes++;
        for (const event of frame.events) this.userEventsSubject.next(event);
        reportBadEntries(frame.badEntries, this.counters, this.malformedLog);
        for (const order of frame.unknownStateOrders) this.unknownStateOrdersSubject.next(order);
        return;
      case 'malformed':
        this.counters.malformed++;
        this.malformedLog.report(frame.problem);
        for (const order of frame.unknownStateOrders ?? []) this.unknownStateOrdersSubject.next(order);
        return;
      case 'unexpected':
        this.counters.unexpected++;
        this.unexpectedLog.report(frame.problem);
    }
  }

  private onDropped(reason: string): void {
    const wasLoggedIn = this.loggedIn;
    this.loggedIn = false;
    this.socket = undefined;
    this.heartbeat.stop();
    this.pending.failAll();
    if (wasLoggedIn) this.connectionSubject.next({ kind: 'dropped', reason, ts: this.serverClock.now() });
    if (this.closing) return;
    const policy = this.options.reconnect ?? { baseMs: 1_000, capMs: 30_000 };
    const delay = Math.max(
      policy.minMs ?? 1_000,
      backoffDelay(this.attempt++, policy.baseMs, policy.capMs, this.random),
    );
    this.logger.warn({ reason, delay, attempt: this.attempt }, 'private WebSocket dropped: reconnecting');
    this.cancelReconnect = this.timer.setTimer(() => {
      if (this.closing) return;
      this.open().catch((error: Error) =>
        this.logger.warn({ err: error.message }, 'private WebSocket reconnect failed'),
      );
    }, delay);
  }
}
