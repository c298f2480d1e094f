/**
 * A REST failure to inject. `status` answers 5xx and `timeout` never answers, both before the
 * request runs: the venue does nothing. `lostReply` runs the request on the venue (an order is
 * placed, a cancel done, a loan taken) and then loses the reply: it never answers (the client's
 * timeout fires), or with `close` it closes the connection (the client sees a network error),
 * while the venue holds the result, as when a reply is lost on the way back.
 */
export interface RestFault {
  readonly kind: 'status' | 'timeout' | 'lostReply';
  /** HTTP status of a `status` fault, default 503. */
  readonly status?: number;
  /** Only requests to this path fail; default any. */
  readonly path?: string;
  /**
   * Only requests of this HTTP method fail (`POST` places an order, `GET` on the same path looks
   * it up); default any.
   */
  readonly method?: string;
  /**
   * Of a `lostReply` fault: true closes the connection once the request ran (a network error,
   * e.g. a reset); false (default) leaves it open and unanswered (a timeout).
   */
  readonly close?: boolean;
}

/** Which request's reply {@link PaperFaults.loseNextRestReply} loses, and how. */
export interface LostReplyOptions {
  /** Only a request to this path; default the next request of any path. */
  readonly path?: string;
  /** Only a request of this HTTP method (e.g. `POST`, not the `GET` lookup on the same path); default any. */
  readonly method?: string;
  /** Close the connection (network error) instead of never answering (timeout). Default false. */
  readonly close?: boolean;
}

/**
 * Fault injection for tests, all off by default: the paper venue consults these switches on every
 * REST request, push and ack. Each `...Next...` switch fires once.
 */
export class PaperFaults {
  /** Extra delay of every private push, ms (wall time). */
  pushDelayMs = 0;
  /** Pushes still to be sent twice. */
  duplicatePushes = 0;
  /** Pushes still to be swapped with the push after them. */
  reorderPushes = 0;
  /** Order acks still to be withheld (the command runs; its reply is never sent). */
  withheldAcks = 0;
  private readonly restFaults: RestFault[] = [];
  private dropper: (which: 'private' | 'market-data' | 'all') => void = () => undefined;

  /**
   * Wires the connection dropper (done by the server at start).
   * @param dropper - closes connections abruptly
   */
  bindDropper(dropper: (which: 'private' | 'market-data' | 'all') => void): void {
    this.dropper = dropper;
  }

  /**
   * Drops open WebSocket connections abruptly (no close frame), as a network failure would.
   * @param which - private, market-data or all (default)
   */
  dropConnections(which: 'private' | 'market-data' | 'all' = 'all'): void {
    this.dropper(which);
  }

  /**
   * Delays every private push by `ms` from now on (0 turns it off).
   * @param ms - the delay
   */
  delayPushes(ms: number): void {
    this.pushDelayMs = ms;
  }

  /**
   * Sends each of the next `count` private pushes twice.
   * @param count - how many pushes, default 1
   */
  duplicateNextPushes(count = 1): void {
    this.duplicatePushes += count;
  }

  /**
   * Swaps each of the next `count` private pushes with the push that follows it.
   * @param count - how many swaps, default 1
   */
  reorderNextPushes(count = 1): void {
    this.reorderPushes += count;
  }

  /**
   * Fails the next REST request (to `path` when given) with a 5xx or by never answering, before
   * it runs; or, with kind `lostReply`, after it ran (see {@link PaperFaults.loseNextRestReply}).
   * @param fault - status (default 503), timeout or lostReply
   */
  failNextRest(fault: RestFault = { kind: 'status' }): void {
    this.restFaults.push(fault);
  }

  /**
   * Loses the reply of the next REST request (to `path` when given): the venue runs it and holds
   * its result (the order is placed, the cancel done), but the client never hears of it. It gets
   * no answer and its timeout fires, or with `close` the connection closes under it (a network
   * error). Tests use it to check that a lost reply is looked up rather than blindly re-sent.
   * Same as `failNextRest({ kind: 'lostReply', path, method, close })`.
   * @param options - the path to match, and whether to close the connection
   */
  loseNextRestReply(options: LostReplyOptions = {}): void {
    this.restFaults.push({ kind: 'lostReply', ...options });
  }

  /**
   * Withholds the next order ack (PLACE_ORDER_ACK, place_order, replace_order, cancel_order,
   * cancel_orders): the venue runs the command but sends no reply, as when a reply is lost.
   */
  withholdNextAck(): void {
    this.withheldAcks++;
  }

  /**
   * Takes the REST fault that applies to a request, if any.
   * @param path - the request path
   * @param method - the request's HTTP method; a fault naming another method does not apply
   * @returns the fault, consumed
   */
  takeRestFault(path: string, method?: string): RestFault | undefined {
    const index = this.restFaults.findIndex(
      (f) =>
        (f.path === undefined || f.path === path) &&
        (f.method === undefined || method === undefined || f.method.toUpperCase() === method.toUpperCase()),
    );
    if (index < 0) return undefined;
    const [fault] = this.restFaults.splice(index, 1);
    return fault;
  }

  /** @returns true when the ack about to be sent must be withheld (consumes the switch) */
  takeWithheldAck(): boolean {
    if (this.withheldAcks <= 0) return false;
    this.withheldAcks--;
    return true;
  }

  /** Turns every fault off. */
  reset(): void {
    this.pushDelayMs = 0;
    this.duplicatePushes = 0;
    this.reorderPushes = 0;
    this.withheldAcks = 0;
    this.restFaults.length = 0;
  }
}
