import { VenueError, VenueTimeoutError } from '../errors.ts';
import type { TimerPort } from '../timer-port.ts';
import type { WsReplyWire } from '../wire/ws-envelope.ts';
import { ConnectionLostError } from './ws-errors.ts';

/**
 * The reply to a request that had already timed out: the reply itself (code 0 or 200000), or the
 * venue's refusal of the request.
 */
export type LateReply = { readonly reply: WsReplyWire } | { readonly refusal: VenueError };

/** What became of a reply handed to {@link PendingRequests.answer}. */
export type ReplyMatch = 'answered' | 'late' | 'unmatched';

/**
 * How many timed-out requests are remembered for a late reply (Keel's choice): the oldest is
 * forgotten past it, so a venue that never answers cannot grow the map.
 */
const REMEMBERED_TIMEOUTS = 1_000;

interface Pending {
  readonly what: string;
  /** The request's action: a reply with a non-success code rejects with VenueError; undefined for login. */
  readonly action: string | undefined;
  readonly resolve: (reply: WsReplyWire) => void;
  readonly reject: (error: Error) => void;
  readonly cancelTimer: () => void;
  readonly onLateReply: ((late: LateReply) => void) | undefined;
}

/**
 * The private WebSocket's requests waiting for their replies, correlated by id, each with a reply
 * timeout: a reply settles its request, a timeout rejects it with VenueTimeoutError, a dropped
 * connection rejects them all with ConnectionLostError. A request that timed out and asked for it
 * still gets its reply if it comes later on the same connection.
 */
export class PendingRequests {
  private readonly pending = new Map<string, Pending>();
  /** Timed-out requests that take a late reply, by id, oldest first; forgotten at a drop. */
  private readonly timedOut = new Map<string, Pending>();

  /** @param timer - the reply timeouts' timers */
  constructor(private readonly timer: TimerPort) {}

  /**
   * Registers a request, then sends it, and waits for its reply.
   * @param id - the request id its reply will carry (`login` for the login)
   * @param what - the request, for errors (e.g. `place_order id 7`)
   * @param timeoutMs - reply timeout
   * @param action - the request's action; undefined for login, whose reply code the caller checks
   * @param send - sends the frame, once the request is registered
   * @param onLateReply - given the reply should it come after the timeout, on the same connection
   * @returns the reply
   * @throws VenueTimeoutError without reply, VenueError on a non-success code, ConnectionLostError on a drop
   */
  wait(
    id: string,
    what: string,
    timeoutMs: number,
    action: string | undefined,
    send: () => void,
    onLateReply?: (late: LateReply) => void,
  ): Promise<WsReplyWire> {
    return new Promise((resolve, reject) => {
      const cancelTimer = this.timer.setTimer(() => {
        const waiting = this.pending.get(id);
        this.pending.delete(id);
        if (waiting?.onLateReply !== undefined) this.remember(id, waiting);
        reject(new VenueTimeoutError(what, timeoutMs));
      }, timeoutMs);
      this.pending.set(id, { what, action, resolve, reject, cancelTimer, onLateReply });
      send();
    });
  }

  /**
   * Settles the request a reply answers: resolved, or rejected with VenueError when the code is
   * neither 0 nor 200000; or, for a request that timed out, hands the reply to its late-reply
   * callback.
   * @param reply - the reply frame
   * @returns whether it answered a waiting request, came late for a timed-out one, or matches none
   */
  answer(reply: WsReplyWire): ReplyMatch {
    const id = reply.id ?? (reply.event === 'login' ? 'login' : undefined);
    if (id === undefined) return 'unmatched';
    const waiting = this.pending.get(id);
    if (waiting !== undefined) {
      this.pending.delete(id);
      waiting.cancelTimer();
      const refusal = refusalOf(waiting, reply);
      if (refusal === undefined) waiting.resolve(reply);
      else waiting.reject(refusal);
      return 'answered';
    }
    const late = this.timedOut.get(id);
    if (late === undefined) return 'unmatched';
    this.timedOut.delete(id);
    const refusal = refusalOf(late, reply);
    late.onLateReply?.(refusal === undefined ? { reply } : { refusal });
    return 'late';
  }

  /** Rejects every pending request with ConnectionLostError (the connection dropped or closed). */
  failAll(): void {
    // Replies to the timed-out ones could only come on the connection that is gone.
    this.timedOut.clear();
    for (const [id, waiting] of this.pending) {
      this.pending.delete(id);
      waiting.cancelTimer();
      waiting.reject(new ConnectionLostError(waiting.what));
    }
  }

  private remember(id: string, waiting: Pending): void {
    this.timedOut.set(id, waiting);
    if (this.timedOut.size <= REMEMBERED_TIMEOUTS) return;
    const oldest = this.timedOut.keys().next().value;
    if (oldest !== undefined) this.timedOut.delete(oldest);
  }
}

/**
 * @param waiting - the request
 * @param reply - its reply
 * @returns the venue's refusal when the reply's code is neither 0 nor 200000 (the login's code is
 *   its caller's to check), else undefined
 */
function refusalOf(waiting: Pending, reply: WsReplyWire): VenueError | undefined {
  if (waiting.action === undefined || reply.code === 0 || reply.code === 200000) return undefined;
  return new VenueError({
    code: reply.code,
    message: reply.message ?? reply.msg ?? '',
    method: 'WS',
    path: waiting.action,
  });
}
