/** A REST failure to inject: answer 5xx, or never answer (the client's timeout fires). */
export interface RestFault {
  readonly kind: 'status' | 'timeout';
  /** HTTP status of a `status` fault, default 503. */
  readonly status?: number;
  /** Only requests to this path fail; default any. */
  readonly path?: string;
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
   * Fails the next REST request (to `path` when given) with a 5xx or by never answering.
   * @param fault - status (default 503) or timeout
   */
  failNextRest(fault: RestFault = { kind: 'status' }): void {
    this.restFaults.push(fault);
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
   * @returns the fault, consumed
   */
  takeRestFault(path: string): RestFault | undefined {
    const index = this.restFaults.findIndex((f) => f.path === undefined || f.path === path);
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
