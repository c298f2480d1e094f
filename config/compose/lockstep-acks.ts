import { LOCKSTEP_SETTLE_EVENT, LOCKSTEP_TIME_EVENT } from '../../backtest/paper-venue/index.ts';
import { monotonicNow } from '../../core/kernel/index.ts';
import type { RestMutationLedger } from '../../core/venue/index.ts';
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
  /**
   * Sends `lockstep_ack` with the highest seq handled (lost while the socket is down), and with
   * `extras` when the session follows the venue's clock (see `wakeAt`).
   */
  readonly send: (seq: number, extras: LockstepAckExtras) => void;
  /**
   * The session's earliest timer, epoch ms (`Infinity` = none), read when an ack is sent: the
   * venue then ticks to it before releasing a later event (see `onTick`). Absent = the session
   * does not take ticks (its acks carry no extras).
   */
  readonly wakeAt?: () => number;
  /**
   * The venue ticked to `time` before its next event: move the session's clock there, firing
   * the timers due by then, before the tick is acknowledged.
   */
  readonly onTick?: (time: number) => void;
  /**
   * Whether the session takes settle rounds (`LOCKSTEP_SETTLE_EVENT`): its acks say the last it
   * handled, so the venue, before its next event, has it handle the replies and pushes its
   * commands got and send what they made it do, as a backtest does. A settle frame is
   * acknowledged as an event is (after what is `pending` and `held`).
   */
  readonly settleRounds?: boolean;
  /**
   * What the session still asks of the venue about the event it handled (the legs attached to an
   * order that just filled), read before each ack; the ack waits for it. The venue's time moves
   * only with acks, so the venue answers as of that event and the answer reaches the strategies
   * before the next event: in the same place on every run. Absent or undefined = nothing pending.
   */
  readonly pending?: () => Promise<void> | undefined;
  /**
   * The commands the session holds behind unanswered ones on their sym (see `SymCommandOrder`),
   * read before each ack once nothing is `pending`: settles once one of them went out (or none is
   * held any more), and is read again. The ack waits for them too, but the venue first gets an
   * ack saying it holds commands (`held`), and another each time one went out while others stay
   * held: its time moves only with acks, so it would otherwise never answer the commands they
   * wait for (one held cancel per order of a hook, each behind its order's ack), before its stall
   * bound. Absent or undefined = none held.
   */
  readonly held?: () => Promise<void> | undefined;
  /**
   * The session's count of state-changing REST requests (see `REST_SEQ_HEADER`), read when an
   * ack is sent: the venue releases nothing more until it has received them all, as they may
   * travel slower than the ack.
   */
  readonly restMutations?: RestMutationLedger;
}

/** What an ack says besides its seq when the session takes ticks (Keel's paper-venue extension). */
export interface LockstepAckExtras {
  /** The session's earliest timer, epoch ms; null = none. */
  readonly wakeAt?: number | null;
  /** The last tick the session handled. */
  readonly tick?: number;
  /** The last settle round the session handled (0 before the first): it takes them. */
  readonly settle?: number;
  /** Which run's REST requests `restSent` counts. */
  readonly restEpoch?: string;
  /** How many state-changing REST requests the session had sent. */
  readonly restSent?: number;
  /**
   * The session handled the event or tick but holds commands it made then, to send once the
   * commands before them on their sym are answered: the venue runs what is due before its next
   * event, and releases it only on the plain ack that follows.
   */
  readonly held?: boolean;
}

/** The acknowledgements of one session. */
export interface LockstepAcks {
  /**
   * Takes the text of each raw market frame the session receives.
   * @returns true for a lockstep tick (a frame of the venue's, not market data)
   */
  readonly onMarketFrame: (text: string) => boolean;
  /**
   * Sends the latest ack again, e.g. after the socket it goes over logged in again: an ack sent
   * while it was down is lost, and the venue, waiting for it, would release nothing more. The
   * venue takes the highest seq acknowledged, so a repeat is harmless.
   */
  readonly resend: () => void;
  /**
   * Stops acknowledging, for the session's stop: an ack still to be sent (paced, or waiting for
   * what is pending) is not sent, and a tick that arrives is not handled, so the venue releases
   * nothing more. The one thing the last ack sent may have released (an event, on which the venue
   * may have filled an order) is still handled and recorded like the rest: the returned promise
   * settles once it arrived, and what it left pending is done. A session that handled a tick since
   * its last event has acted (fired timers, sent what they made) at a time no recorded event
   * reaches, and a backtest of its recording, which ends at its last event, would not: it goes on
   * acknowledging, unpaced, until the venue releases the event that tick came before, and stops
   * there (that event handled and recorded, not acknowledged).
   * @returns settles at once when the last ack sent was answered and the session handled no tick
   *   since its last event; else once the event awaited arrived and was handled (never, if the
   *   venue releases nothing more: bound the wait)
   */
  readonly halt: () => Promise<void>;
}

/**
 * Acknowledges market events to the paper venue in its lockstep mode: a first ack (seq 0) once
 * every subscription is confirmed, then, after each handled event, one ack of the highest seq
 * seen, paced to at most `speed` times real time. With `wakeAt`, each ack also says when the
 * session's earliest timer is due, and a tick of the venue to that time (before its next event)
 * goes to `onTick` and is acknowledged like an event: the session's timers fire at their time,
 * in the same order with the market as in a backtest. An ack waits for what is `pending`.
 * @param options - subscriptions, pace, session clock, what is pending and how to send an ack
 * @returns what takes each raw market frame, and the re-send of the latest ack
 */
export function lockstepAcks(options: LockstepAckOptions): LockstepAcks {
  let subscribed = 0;
  let highestSeq = 0;
  let lastTick = 0;
  let lastSettle = 0;
  let ackQueued = false;
  /** The first event's real time (monotonic, so a wall-clock step does not stall or rush the pace) and venue time. */
  let pacedFrom: { readonly real: number; readonly venue: number } | undefined;
  /** The latest ack due (sent or not); undefined until the first is. */
  let latest: number | undefined;
  /** Whether the last ack sent still awaits the event or tick the venue releases for it. */
  let unanswered = false;
  let halted = false;
  let answered: (() => void) | undefined;
  /** Whether the session handled a tick since its last event (its clock passed every event it recorded). */
  let tickedSinceEvent = false;
  /** Set by a halt after a tick: settled by the next event, on which the acks stop. */
  let eventAfterTick: (() => void) | undefined;
  /** The paced ack's wait, cleared on halt: a long one would keep a stopped process alive. */
  let pacing: NodeJS.Timeout | undefined;
  /** What the paced wait sends, run at once by a halt that goes on to the next event. */
  let pacedSend: (() => void) | undefined;
  const restCount = (): LockstepAckExtras => {
    const ledger = options.restMutations;
    return ledger === undefined ? {} : { restEpoch: ledger.epoch, restSent: ledger.sent };
  };
  const settles = (): LockstepAckExtras => (options.settleRounds === true ? { settle: lastSettle } : {});
  const extras = (): LockstepAckExtras => {
    if (options.wakeAt === undefined) return { ...settles(), ...restCount() };
    const wakeAt = options.wakeAt();
    return { wakeAt: Number.isFinite(wakeAt) ? wakeAt : null, tick: lastTick, ...settles(), ...restCount() };
  };
  const send = (seq: number): void => {
    if (halted) return;
    latest = seq;
    unanswered = true;
    options.send(seq, extras());
  };
  const resend = (): void => {
    if (latest !== undefined && !halted) options.send(latest, extras());
  };
  const anyPending = (): Promise<void> | undefined => options.pending?.() ?? options.held?.();
  const pendingDone = async (): Promise<void> => {
    for (let pending = anyPending(); pending !== undefined; pending = anyPending())
      await pending.catch(() => {});
  };
  /**
   * The seq, tick and settle round the last `held` ack was sent for: one per step handled, and
   * one more each time a held command went out while others stay held.
   */
  let heldAcked: { readonly seq: number; readonly tick: number; readonly settle: number } | undefined;
  /** Whether the ack due waits for held commands (their `held` ack sent). */
  let holding = false;
  /**
   * Says the session holds commands, once per step handled (an event the venue released while it
   * held them included), after what that step left pending.
   */
  const heldAck = (): void => {
    const pending = options.pending?.();
    if (pending !== undefined) {
      void pending.then(heldAck, heldAck);
      return;
    }
    if (
      halted ||
      !holding ||
      (heldAcked?.seq === highestSeq && heldAcked.tick === lastTick && heldAcked.settle === lastSettle)
    )
      return;
    heldAcked = { seq: highestSeq, tick: lastTick, settle: lastSettle };
    options.send(highestSeq, { ...extras(), held: true });
  };
  const halt = (): Promise<void> => {
    clearTimeout(pacing);
    pacing = undefined;
    const paced = pacedSend;
    pacedSend = undefined;
    if (tickedSinceEvent && !halted) {
      const reached = new Promise<void>((resolve) => {
        eventAfterTick = resolve;
      });
      paced?.();
      return reached.then(pendingDone);
    }
    halted = true;
    if (!unanswered) return pendingDone();
    return new Promise<void>((resolve) => {
      answered = resolve;
    }).then(pendingDone);
  };
  const onMarketFrame = (text: string): boolean => {
    const frame = JSON.parse(text) as {
      seq?: unknown;
      event?: unknown;
      arg?: unknown;
      time?: unknown;
      tick?: unknown;
      round?: unknown;
    };
    if (frame.event === 'subscribe') {
      // One confirmation answers one message, which may carry several subscriptions.
      const before = subscribed;
      subscribed += Array.isArray(frame.arg) ? frame.arg.length : 1;
      if (before < options.subscriptions && subscribed >= options.subscriptions) send(0);
    }
    const tick = frame.event === LOCKSTEP_TIME_EVENT && typeof frame.tick === 'number';
    const settle = frame.event === LOCKSTEP_SETTLE_EVENT && typeof frame.round === 'number';
    // A frame of the venue's own, not market data.
    const control = tick || settle;
    if (control || typeof frame.seq === 'number') {
      // In lockstep the venue sends one event, tick or settle frame per ack: this answers the last one sent.
      unanswered = false;
      answered?.();
      answered = undefined;
    }
    // The event a halt after a tick waited for: the session stops acknowledging on it.
    if (eventAfterTick !== undefined && typeof frame.seq === 'number' && !control) {
      halted = true;
      eventAfterTick();
      eventAfterTick = undefined;
    }
    // Once halted, a tick is left unhandled: a backtest of the recording, which ends at the last
    // event, fires no timer after it. An event is still handled, but not acknowledged.
    if (halted) return control;
    if (tick) {
      options.onTick?.(Number(frame.time));
      lastTick = Math.max(lastTick, Number(frame.tick));
      tickedSinceEvent = true;
    } else if (settle) {
      lastSettle = Math.max(lastSettle, Number(frame.round));
    } else if (typeof frame.seq === 'number') {
      highestSeq = Math.max(highestSeq, frame.seq);
      tickedSinceEvent = false;
    } else return false;
    if (ackQueued) {
      // The venue released it while the session held commands: it says so for this step too.
      if (holding) queueMicrotask(heldAck);
      return control;
    }
    ackQueued = true;
    // The kernel handles the event synchronously after this tap, orders included: acknowledge after it.
    const venueTime = options.sessionClock();
    // Pacing runs from the first event, never from a tick or settle frame: one before it (a timer
    // set in the past, even at 0) carries the venue's time then, and would hold every later ack for
    // the years between.
    if (!control) pacedFrom ??= { real: monotonicNow(), venue: venueTime };
    queueMicrotask(() => {
      const due =
        pacedFrom === undefined ? 0 : pacedFrom.real + (venueTime - pacedFrom.venue) / options.speed;
      const wait = due - monotonicNow();
      const sendHighest = (): void => {
        const pending = options.pending?.();
        if (pending !== undefined) {
          void pending.then(sendHighest, sendHighest);
          return;
        }
        const held = options.held?.();
        if (held !== undefined) {
          holding = true;
          heldAck();
          void held.then(released, released);
          return;
        }
        holding = false;
        ackQueued = false;
        send(highestSeq);
      };
      /** A held command went out: while others stay held, the venue is told so again. */
      const released = (): void => {
        heldAcked = undefined;
        sendHighest();
      };
      // A halt going on to the next event sends it at once.
      if (wait > 1 && eventAfterTick === undefined) {
        pacedSend = sendHighest;
        pacing = setTimeout(() => {
          pacedSend = undefined;
          sendHighest();
        }, wait);
      } else sendHighest();
    });
    return control;
  };
  return { onMarketFrame, resend, halt };
}
