import type { WebSocket } from 'ws';
import type { TimerPort } from '../../core/venue/index.ts';
import {
  PLACE_ORDER_ACK_EVENT,
  PLACE_ORDER_ACTION,
  PRIVATE_PING,
  PRIVATE_PONG,
  wsRequestSchema,
} from '../../core/venue/index.ts';
import type { CommandName } from './command-table.ts';
import type { DelayLine } from './delay-line.ts';
import { PaperApiError } from './envelope.ts';
import type { PaperFaults } from './faults.ts';
import { isJsonObject } from './json-object.ts';
import { lockstepAckExtrasOf } from './lockstep-tick.ts';
import { checkLogin } from './login-check.ts';
import type { LockstepAckExtras } from './market-feed.ts';
import type { PortfolioBook } from './portfolio-book.ts';
import { PushPipe } from './push-pipe.ts';
import type { RateLimits } from './rate-limits.ts';
import type { Params } from './request-fields.ts';
import type { ApiCredential } from './rest-auth.ts';
import { sendToReader } from './slow-consumer.ts';
import { userDataFrameOf } from './user-data-frames.ts';
import type { VenueLatency } from './venue-latency.ts';

/** What a private session needs from the venue. */
export interface PrivateSessionDeps {
  readonly credentials: ReadonlyMap<string, ApiCredential>;
  readonly books: ReadonlyMap<string, PortfolioBook>;
  readonly faults: PaperFaults;
  readonly limits: RateLimits;
  /** Wall-clock timers: idle close, push delays, the login rate limit. */
  readonly timer: TimerPort;
  /** The server's clock (see `serverTime`): the login timestamp is checked against it. */
  readonly serverNow: () => number;
  /**
   * The venue's own time (a replay's time in a paper session on a recording), on which the
   * place-order limit is counted: a replay at speed 60 or in lockstep sends a minute of orders in
   * a second of the wall clock, as a strategy at the market's pace would send them in a minute.
   */
  readonly venueNow: () => number;
  /** Idle connections are closed after this long without a message (per public venue docs: 30 s). */
  readonly idleMs: number;
  /**
   * Runs a state-changing command through the journal.
   * @param arrival - when it reached the matching engine (with an order-entry latency)
   */
  execute(book: PortfolioBook, name: CommandName, params: Params, where: string, arrival?: number): unknown;
  /**
   * The venue's latency: commands wait for their order-entry delay, and the connection's User
   * Data pushes wait on a line of their own until their receive time.
   */
  readonly delays: Pick<VenueLatency, 'afterOrderEntry' | 'openPushLine' | 'closePushLine'>;
  /**
   * Keel's paper-venue extension: the client processed market events up to seq (and, with
   * extras, its earliest timer and the last lockstep tick it handled).
   */
  lockstepAck(seq: number, extras: LockstepAckExtras): void;
}

/** Order actions and the command each runs: the spec's PLACE_ORDER and the public lower-case ones. */
const ORDER_ACTIONS: Readonly<Record<string, CommandName>> = {
  [PLACE_ORDER_ACTION]: 'placeEquityOrder',
  place_order: 'placeOrder',
  replace_order: 'replaceOrder',
  cancel_order: 'cancelOrder',
  cancel_orders: 'cancelOrders',
};

/**
 * One private WebSocket connection at `/v1/private`: login, order entry, User Data pushes, text
 * ping / pong, idle close and the lockstep ack.
 */
export class PrivateSession {
  private book: PortfolioBook | undefined;
  private readonly stops: (() => void)[] = [];
  private readonly pipe: PushPipe;
  private cancelIdle: (() => void) | undefined;
  /** Pushes produced while a command runs wait for its reply (ack first, then the order's life). */
  private held: { readonly frame: string; readonly due: number }[] | undefined;
  /** Holds each push until its event's receive time (the User Data latency). */
  private readonly pushes: DelayLine;
  private framesSent = 0;
  private pongsSent = 0;
  private acked: (() => void) | undefined;

  /**
   * @param ws - the socket
   * @param deps - the venue's services
   */
  constructor(
    readonly ws: WebSocket,
    private readonly deps: PrivateSessionDeps,
  ) {
    this.pipe = new PushPipe(ws, deps.faults, deps.timer, () => this.framesSent++);
    this.pushes = deps.delays.openPushLine();
    this.armIdle();
    ws.on('message', (data, isBinary) => this.onMessage(isBinary ? '' : String(data)));
    ws.on('close', () => {
      this.dispose();
      deps.delays.closePushLine(this.pushes);
    });
  }

  /**
   * How many frames this connection wrote to its socket since its last successful login (replies,
   * pongs and pushes): a lockstep market frame carries it, so the client handles the market
   * event only after the fills it caused.
   */
  get sentSinceLogin(): number {
    return this.framesSent;
  }

  /**
   * How many of {@link sentSinceLogin} were no pong: the replies and pushes a client may act on,
   * which a lockstep venue settles before its next event (`LOCKSTEP_SETTLE_EVENT`).
   */
  get sentBesidesPongsSinceLogin(): number {
    return this.framesSent - this.pongsSent;
  }

  /**
   * Listens for the lockstep acks this connection sends.
   * @param listener - called on each
   */
  onLockstepAck(listener: () => void): void {
    this.acked = listener;
  }

  /** Stops listening and timers (on close). */
  dispose(): void {
    for (const stop of this.stops.splice(0)) stop();
    this.cancelIdle?.();
  }

  private armIdle(): void {
    this.cancelIdle?.();
    this.cancelIdle = this.deps.timer.setTimer(
      () => this.ws.close(4000, 'idle for too long'),
      this.deps.idleMs,
    );
  }

  private reply(body: Record<string, unknown>): void {
    // A delayed command may finish after its connection closed: the command ran, its reply is lost.
    this.write(JSON.stringify(body));
  }

  private write(text: string): void {
    if (sendToReader(this.ws, text)) this.framesSent++;
  }

  private onMessage(text: string): void {
    this.armIdle();
    if (text === PRIVATE_PING) {
      const before = this.framesSent;
      this.write(PRIVATE_PONG);
      this.pongsSent += this.framesSent - before;
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.reply({
        event: 'error',
        id: null,
        code: 400001,
        message: 'bad parameters: the frame is not JSON',
        data: null,
      });
      return;
    }
    if (!isJsonObject(message)) {
      this.reply({
        event: 'error',
        id: null,
        code: 400001,
        message: 'bad parameters: the frame is not a JSON object',
        data: null,
      });
      return;
    }
    if (message.action === 'login') this.login(message);
    else if (message.action === 'lockstep_ack') this.lockstep(message);
    else this.order(message);
  }

  private login(message: unknown): void {
    const checked = checkLogin(
      message,
      this.deps.credentials,
      this.deps.limits,
      this.deps.timer,
      this.deps.serverNow(),
    );
    if (typeof checked === 'string') {
      this.reply({ id: null, event: 'login', code: 60009, msg: checked, message: checked, data: null });
      return;
    }
    const { credential, onlyTrade } = checked;
    this.dispose();
    this.armIdle();
    const book = this.deps.books.get(credential.portfolioId);
    this.book = book;
    this.reply({ id: null, event: 'login', code: 0, msg: '', message: 'success', data: null });
    this.framesSent = 0;
    this.pongsSent = 0;
    if (!book || onlyTrade) return;
    this.stops.push(
      book.listen((event) => this.push(userDataFrameOf(book, event, true, book.isMain), event.recvTs)),
    );
    if (book.isMain) {
      for (const sub of this.deps.books.values()) {
        if (sub !== book)
          this.stops.push(
            sub.listen((event) => this.push(userDataFrameOf(sub, event, false, true), event.recvTs)),
          );
      }
    }
  }

  /**
   * Sends or holds one push.
   * @param frame - the frame, undefined for an event without a channel
   * @param due - the event's receive time: its venue time plus the User Data latency
   */
  private push(frame: string | undefined, due: number): void {
    if (frame === undefined) return;
    if (this.held) this.held.push({ frame, due });
    else this.send(frame, due);
  }

  private send(frame: string, due: number): void {
    this.pushes.enter(due, () => this.pipe.send(frame));
  }

  private lockstep(message: Readonly<Record<string, unknown>>): void {
    const args = isJsonObject(message.args) ? message.args : {};
    const seq = Number(args.seq);
    if (!Number.isSafeInteger(seq) || seq < 0) return;
    this.acked?.();
    this.deps.lockstepAck(seq, lockstepAckExtrasOf(args));
  }

  private order(message: Readonly<Record<string, unknown>>): void {
    const parsed = wsRequestSchema.safeParse(message);
    const id = typeof message.id === 'string' ? message.id : null;
    if (!parsed.success) {
      this.reply({
        event: 'error',
        id,
        code: 400001,
        message: 'bad parameters: a request needs action, id and args',
        data: null,
      });
      return;
    }
    const { action, args } = parsed.data;
    const event = action === PLACE_ORDER_ACTION ? PLACE_ORDER_ACK_EVENT : action;
    const command = ORDER_ACTIONS[action];
    if (command === undefined) {
      this.reply({
        event,
        id,
        code: 400001,
        message: `bad parameters: unknown action ${action}`,
        data: null,
      });
      return;
    }
    if (!this.book) {
      this.reply({ event, id, code: 60009, message: 'log in before sending order actions', data: null });
      return;
    }
    const book = this.book;
    const failed = (error: unknown): Record<string, unknown> =>
      // A fault of the venue itself must not take the server down: it answers 40000 (system error).
      error instanceof PaperApiError
        ? { event, id, code: error.code, message: error.message, data: null }
        : { event, id, code: 40000, message: `system error: ${String(error)}`, data: null };
    try {
      // The gateway counts the request when it comes in, before it travels to the matching engine.
      if (action === PLACE_ORDER_ACTION || action === 'place_order') {
        this.deps.limits.take(book.portfolioId, 'wsPlaceOrder', this.deps.venueNow());
      }
    } catch (error) {
      this.reply(failed(error));
      return;
    }
    this.deps.delays.afterOrderEntry(command, (arrival) => {
      this.held = [];
      let body: Record<string, unknown>;
      try {
        const data = this.deps.execute(book, command, args, `WebSocket ${action}`, arrival);
        body = { event, id, code: 0, message: 'success', data };
      } catch (error) {
        body = failed(error);
      }
      const held = this.held;
      this.held = undefined;
      if (!this.deps.faults.takeWithheldAck()) this.reply(body);
      for (const push of held) this.send(push.frame, push.due);
    });
  }
}
