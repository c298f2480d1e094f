/**
 * Counts of inbound messages by outcome, exposed so a run can report (and alert on) malformed
 * or unexpected venue traffic. Every inbound frame increments `frames` and exactly one outcome,
 * with one exception: a User Data batch with good and bad entries counts once under `pushes`
 * (its good entries are delivered) and once more under `malformed` per bad entry, and so does a
 * REST page decoded entry by entry under `replies`.
 */
export interface InboundCounters {
  frames: number;
  /** Heartbeat replies. */
  heartbeats: number;
  /** Request replies matched to a pending request. */
  replies: number;
  /** Replies whose id matched no pending request (late after a timeout, or unknown). */
  unmatchedReplies: number;
  /** Pushes decoded into events. */
  pushes: number;
  /** Control messages that carry no event (subscribe acks, login reply). */
  control: number;
  /**
   * Frames that are not JSON or miss / mistype a field, plus each bad entry of a User Data batch
   * whose other entries were delivered (or of a REST page decoded entry by entry).
   */
  malformed: number;
  /**
   * Well-formed frames of a kind Keel does not expect (unknown channel or event); on the market
   * socket also a BBO of a sym not subscribed to (dropped) and a crossed BBO, bid above ask
   * (delivered all the same, counted here instead of under `pushes`).
   */
  unexpected: number;
}

/**
 * Fresh counters, all zero.
 * @returns the counters object (mutated in place by the clients)
 */
export function createInboundCounters(): InboundCounters {
  return {
    frames: 0,
    heartbeats: 0,
    replies: 0,
    unmatchedReplies: 0,
    pushes: 0,
    control: 0,
    malformed: 0,
    unexpected: 0,
  };
}

/** One raw inbound frame as the recorder tap receives it: what the venue sent, and when. */
export interface RawInboundFrame {
  readonly source: 'private' | 'market';
  /** The frame text (gunzipped for market data). */
  readonly text: string;
  readonly recvTs: number;
}
