/** What acknowledging market events to the paper venue needs. */
export interface LockstepAckOptions {
  /** How many market subscriptions the session makes: the first ack goes once all are confirmed. */
  readonly subscriptions: number;
  /**
   * Acknowledge no faster than this many times real time (by the events' venue time);
   * `Number.POSITIVE_INFINITY` acknowledges as soon as an event was handled.
   */
  readonly speed: number;
  /** The session clock: the venue time of the latest event. */
  readonly sessionClock: () => number;
  /** Sends `lockstep_ack` with the highest seq handled. */
  readonly send: (seq: number) => void;
}

/**
 * Acknowledges market events to the paper venue in its lockstep mode: a first ack (seq 0) once
 * every subscription is confirmed, then, after each handled event, one ack of the highest seq
 * seen, paced to at most `speed` times real time.
 * @param options - subscriptions, pace, session clock and how to send an ack
 * @returns a function taking the text of each raw market frame the session receives
 */
export function lockstepAcks(options: LockstepAckOptions): (text: string) => void {
  let subscribed = 0;
  let highestSeq = 0;
  let ackQueued = false;
  let pacedFrom: { readonly wall: number; readonly venue: number } | undefined;
  return (text) => {
    const frame = JSON.parse(text) as { seq?: unknown; event?: unknown };
    if (frame.event === 'subscribe' && ++subscribed === options.subscriptions) options.send(0);
    if (typeof frame.seq !== 'number') return;
    highestSeq = Math.max(highestSeq, frame.seq);
    if (ackQueued) return;
    ackQueued = true;
    // The kernel handles the event synchronously after this tap, orders included: acknowledge after it.
    const venueTime = options.sessionClock();
    pacedFrom ??= { wall: Date.now(), venue: venueTime };
    queueMicrotask(() => {
      const due =
        pacedFrom === undefined ? 0 : pacedFrom.wall + (venueTime - pacedFrom.venue) / options.speed;
      const wait = due - Date.now();
      const send = () => {
        ackQueued = false;
        options.send(highestSeq);
      };
      if (wait > 1) setTimeout(send, wait);
      else send();
    });
  };
}
