import { VenueError, VenueTimeoutError } from '../errors.ts';
import type { TimerPort } from '../timer-port.ts';
import type { WsReplyWire } from '../wire/ws-envelope.ts';
import { ConnectionLostError } from './ws-errors.ts';

interface Pending {
  readonly what: string;
  /** The request's action: a reply with a non-success code rejects with VenueError; undefined for login. */
  readonly action: string | undefined;
  readonly resolve: (reply: WsReplyWire) => void;
  readonly reject: (error: Error) => void;
  readonly cancelTimer: () => void;
}

/**
 * The private WebSocket's requests waiting for their replies, correlated by id, each with a reply
 * timeout: a reply settles its request, a timeout rejects it with VenueTimeoutError, a dropped
 * connection rejects them all with ConnectionLostError.
 */
export class PendingRequests {
  private readonly pending = new Map<string, Pending>();

  /** @param timer - the reply timeouts' timers */
  constructor(private readonly timer: TimerPort) {}

  /**
   * Registers a request, then sends it, and waits for its reply.
   * @param id - the request id its reply will carry (`login` for the login)
   * @param what - the request, for errors (e.g. `place_order id 7`)
   * @param timeoutMs - reply timeout
   * @param action - the request's action; undefined for login, whose reply code the caller checks
   * @param send - sends the frame, once the request is registered
   * @returns the reply
   * @throws VenueTimeoutError without reply, VenueError on a non-success code, ConnectionLostError on a drop
   */
  wait(
    id: string,
    what: string,
    timeoutMs: number,
    action: string | undefined,
    send: () => void,
  ): Promise<WsReplyWire> {
    return new Promise((resolve, reject) => {
      const cancelTimer = this.timer.setTimer(() => {
        this.pending.delete(id);
        reject(new VenueTimeoutError(what, timeoutMs));
      }, timeoutMs);
      this.pending.set(id, { what, action, resolve, reject, cancelTimer });
      send();
    });
  }

  /**
   * Settles the request a reply answers: resolved, or rejected with VenueError when the code is
   * neither 0 nor 200000.
   * @param reply - the reply frame
   * @returns false when the reply matches no pending request
   */
  answer(reply: WsReplyWire): boolean {
    const id = reply.id ?? (reply.event === 'login' ? 'login' : undefined);
    const waiting = id === undefined ? undefined : this.pending.get(id);
    if (waiting === undefined || id === undefined) return false;
    this.pending.delete(id);
    waiting.cancelTimer();
    if (waiting.action !== undefined && reply.code !== 0 && reply.code !== 200000) {
      waiting.reject(
        new VenueError({
          code: reply.code,
          message: reply.message ?? reply.msg ?? '',
          method: 'WS',
          path: waiting.action,
        }),
      );
    } else {
      waiting.resolve(reply);
    }
    return true;
  }

  /** Rejects every pending request with ConnectionLostError (the connection dropped or closed). */
  failAll(): void {
    for (const [id, waiting] of this.pending) {
      this.pending.delete(id);
      waiting.cancelTimer();
      waiting.reject(new ConnectionLostError(waiting.what));
    }
  }
}
