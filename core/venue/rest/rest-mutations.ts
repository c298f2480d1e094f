/**
 * The header numbering a session's state-changing REST requests (Keel's paper-venue extension):
 * `<epoch>:<n>`, n counting from 1 within the epoch (one client's run). A lockstep ack says how
 * many the client had sent; the paper venue waits until it has received them all before it
 * releases the next market event, since the REST requests and the ack (private socket) travel on
 * different connections and may otherwise arrive in either order.
 */
export const REST_SEQ_HEADER = 'x-keel-rest-seq';

/** Counts the state-changing REST requests one client sends (see {@link REST_SEQ_HEADER}). */
export class RestMutationLedger {
  private count = 0;

  /** @param epoch - this client run's id: letters and digits, unique per run */
  constructor(readonly epoch: string) {}

  /** How many state-changing requests were sent. */
  get sent(): number {
    return this.count;
  }

  /**
   * Numbers a state-changing request about to be written.
   * @returns the header's value
   */
  next(): string {
    this.count++;
    return `${this.epoch}:${this.count}`;
  }
}
