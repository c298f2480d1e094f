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
  /** Sends `lockstep_ack` with the highest seq handled (lost while the socket is down). */
  readonly send: (seq: number) => void;
}

/** The acknowledgements of one session. */
export interface LockstepAcks {
  /** Takes the text of each raw market frame the session receives. */
  readonly onMarketFrame: (text: string) => void;
  /**
   * Sends the latest ack again, e.g. after the socket it goes over logged in again: an ack sent
   * while it was down is lost, and the venue, waiting for it, would release nothing more. The
   * venue takes the highest seq acknowledged, so a repeat is harmless.
   */
  readonly resend: () => void;
}

/**
 * Acknowledges market events to the paper venue in its lockstep mode: a first ack (seq 0) once
 * every subscription is confirmed, then, after each handled event, one ack of the highest seq
 * seen, paced to at most `speed` times real time.
 * @param options - subscriptions, pace, session clock and how to send an ack
 * @returns what takes each raw market frame, and the re-send of the latest ack
 */
export function lockstepAcks(options: LockstepAckOptions): LockstepAcks {
  let subscribed = 0;
  let highestSeq = 0;
  let ackQueued = false;
  let pacedFrom: { readonly wall: number; readonly venue: number } | undefined;
  /** The latest ack due (sent or not); undefined until the first is. */
  let latest: number | undefined;
  const send = (seq: number): void => {
    latest = seq;
    options.send(seq);
  };
  const resend = (): void => {
    if (latest !== undefined) options.send(latest);
  };
  const onMarketFrame = (text: string): void => {
    const frame = JSON.parse(text) as { seq?: unknown; event?: unknown };
    if (frame.event === 'subscribe' && ++subscribed === options.subscriptions) send(0);
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
      const sendHighest = () => {
        ackQueued = false;
        send(highestSeq);
      };
      if (wait > 1) setTimeout(sendHighest, wait);
      else sendHighest();
    });
  };
  return { onMarketFrame, resend };
}
