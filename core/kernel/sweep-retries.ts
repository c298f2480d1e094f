import {
  type CancelAlgoOrderIntent,
  type CancelOrdersIntent,
  type CommandRejectedEvent,
  isFinalAlgoState,
  isFinalOrderState,
  showsNoOpenOrder,
  type UserEvent,
} from '../model/index.ts';
import type { KernelState } from './kernel-state.ts';
import { orderKey } from './order-keys.ts';

/** How many times a sweep's cancel is sent again after the venue refused it (Keel's choice). */
export const SWEEP_RETRIES = 3;

/** The wait before the first retry, ms of the run's time; it doubles before each next one (Keel's choice). */
export const SWEEP_RETRY_BACKOFF_MS = 1_000;

/**
 * How long (ms of the run's time) a sweep waits for the venue's word on an order after the venue
 * refused its cancel as not open there (not found, already final) before it reports the order as
 * possibly still working (Keel's choice): the live adapter looks such an order up and, when the
 * venue still does not know it after 3 "not found" over 30 s, ends it CANCELLED; twice that.
 */
export const SWEEP_WORD_WAIT_MS = 60_000;

/** A sweep's cancel: of a strategy's orders on a sym, or of one algo order. */
export type SweepCancel = CancelOrdersIntent | CancelAlgoOrderIntent;

/** Orders a sweep could not cancel: the venue refused its cancel every time. */
export interface SweepFailure {
  /** The strategy whose orders they are. */
  readonly strategyId: string;
  /** The reference of the sweep's last cancel. */
  readonly ref: string;
  /** The orders (clientOrderIds) or algo order (clientAlgoOrderId) still open. */
  readonly targets: readonly string[];
  /** How many cancels were sent. */
  readonly attempts: number;
  /** The venue's code of the last refusal. */
  readonly code: number;
  /** The sentence a log or a result's warning says. */
  readonly reason: string;
  /** The run's time, epoch ms. */
  readonly ts: number;
}

/** What {@link SweepRetries} acts through. */
export interface SweepRetriesHost {
  readonly state: KernelState;
  /** Sends a cancel as Keel's own (the gate, the in-flight bookkeeping, the port); false when denied. */
  readonly send: (ownerId: string, intent: SweepCancel) => boolean;
  /** Whether an algo order is sent and not answered yet (the venue may hold it). */
  readonly algoInFlight: (clientAlgoOrderId: string) => boolean;
  /** Whether a sweep's cancel of an order is in flight. */
  readonly keelCancelInFlight: (clientOrderId: string) => boolean;
  /** Asks to be called at `at` (the run's time, epoch ms). */
  readonly wakeAt: (at: number) => void;
  /** Told of orders a sweep gave up on. */
  readonly failed: (failure: SweepFailure) => void;
}

interface Sent {
  readonly owner: string;
  readonly intent: SweepCancel;
  /** The first cancel's reference: retries are named after it (`<ref>-r<n>`). */
  readonly firstRef: string;
  /** How many retries came before this one (0 for the sweep's own cancel). */
  readonly retries: number;
}

interface Due extends Sent {
  readonly at: number;
}

/** A sweep's cancel refused as not open on the venue, waiting for the venue's word on one target. */
interface AwaitingWord {
  /** The cancel, narrowed to the target. */
  readonly sent: Sent;
  readonly refusal: CommandRejectedEvent;
  /** The run's time of the refusal, epoch ms. */
  readonly refusedAt: number;
}

/**
 * Keel's own cancels of a strategy's orders (a fault's or a kill switch's sweep) that the venue
 * refused: a strategy no longer manages those orders, so one left open would keep working on the
 * venue with nobody watching. A refused cancel is sent again, up to {@link SWEEP_RETRIES} times,
 * {@link SWEEP_RETRY_BACKOFF_MS} after the refusal, doubling each time, on the run's clock, for
 * the targets still open then (a cancel is safe to send again: one that ran after all is refused
 * as final). A refusal saying the venue has no such order open (401018, 401058, 401117) has the
 * order looked up (by the live adapter, or the kernel), and the venue's next word on it decides:
 * still open, the cancel is sent again (after the same backoff, within the same retries); ended,
 * the sweep is done with it; no word within {@link SWEEP_WORD_WAIT_MS}, it is reported as possibly
 * still working. Retries spent, the last refusal is reported ({@link SweepFailure}). Only Keel's
 * cancels are remembered, the last 1,000, and as many orders waiting for the venue's word.
 */
export class SweepRetries {
  private readonly sent = new Map<string, Sent>();
  private due: Due[] = [];
  /** The targets of cancels refused as not open, by reference, waiting for the venue's word. */
  private readonly awaitingWord = new Map<string, AwaitingWord>();

  /** @param host - the kernel's state, the way out, its timer and where failures go */
  constructor(private readonly host: SweepRetriesHost) {}

  /**
   * Notes a sweep's cancel about to be sent.
   * @param owner - the strategy whose orders it cancels
   * @param intent - the cancel
   */
  sweepSent(owner: string, intent: SweepCancel): void {
    this.remember(intent.ref, { owner, intent, firstRef: intent.ref, retries: 0 });
  }

  /**
   * A cancel noted by {@link SweepRetries.sweepSent} was not sent after all (the gate denied it).
   * @param ref - its reference
   */
  notSent(ref: string): void {
    this.sent.delete(ref);
  }

  /**
   * A command was refused (or its answer never came): when it was a sweep's cancel, a retry is
   * due after the backoff, or, retries spent, the failure is reported; refused as not open on the
   * venue, its targets Keel holds open wait for the venue's word first ({@link SweepRetries.venueSaid}).
   * @param event - the refusal
   */
  refused(event: CommandRejectedEvent): void {
    if (this.sent.size === 0) return;
    const sent = this.sent.get(event.ref);
    if (sent === undefined) return;
    this.sent.delete(event.ref);
    const now = this.host.state.now();
    if (showsNoOpenOrder(event.code)) {
      this.awaitWord(sent, event, now);
      return;
    }
    if (sent.retries >= SWEEP_RETRIES) {
      const targets = this.stillOpen(sent);
      if (targets.length > 0) this.host.failed(failure(sent, targets, event, now));
      return;
    }
    const at = now + SWEEP_RETRY_BACKOFF_MS * 2 ** sent.retries;
    this.due.push({ ...sent, at });
    this.host.wakeAt(at);
  }

  /**
   * The venue said something of an order or algo order (an update, as it came, even one the fold
   * finds stale: a lookup's answer that the order is as Keel held it): a target of a cancel refused
   * as not open that the venue shows open is cancelled again after the backoff, or, retries spent,
   * reported; one it shows ended needs nothing more.
   * @param event - a User Data event
   */
  venueSaid(event: UserEvent): void {
    if (this.awaitingWord.size === 0) return;
    let ref: string;
    let open: boolean;
    if (event.kind === 'order') {
      ref = orderKey(event.order);
      open = !isFinalOrderState(event.order.orderState);
    } else if (event.kind === 'algoOrder') {
      ref = event.algoOrder.clientAlgoOrderId;
      open = !isFinalAlgoState(event.algoOrder.state);
    } else return;
    const waiting = this.awaitingWord.get(ref);
    if (waiting === undefined) return;
    this.awaitingWord.delete(ref);
    if (!open) return;
    const { sent, refusal, refusedAt } = waiting;
    const now = this.host.state.now();
    if (sent.retries >= SWEEP_RETRIES) {
      this.host.failed(failure(sent, [ref], refusal, now));
      return;
    }
    const at = Math.max(now, refusedAt + SWEEP_RETRY_BACKOFF_MS * 2 ** sent.retries);
    this.due.push({ ...sent, at });
    this.host.wakeAt(at);
  }

  /**
   * Sends the retries due by `now`, for the targets still open, and reports the targets the venue
   * said nothing of for {@link SWEEP_WORD_WAIT_MS} after refusing their cancel as not open.
   * @param now - the run's time, epoch ms
   */
  wake(now: number): void {
    if (this.awaitingWord.size > 0) this.reportSilent(now);
    const due = this.due.filter((retry) => retry.at <= now);
    if (due.length === 0) return;
    this.due = this.due.filter((retry) => retry.at > now);
    for (const retry of due) {
      const targets = this.stillOpen(retry);
      if (targets.length === 0) continue;
      const retries = retry.retries + 1;
      const ref = `${retry.firstRef}-r${retries}`;
      const intent: SweepCancel =
        retry.intent.kind === 'cancelOrders' ? { ...retry.intent, ref, targets } : { ...retry.intent, ref };
      // Noted first: a port may answer (refuse) before the send returns.
      this.remember(ref, { owner: retry.owner, intent, firstRef: retry.firstRef, retries });
      if (!this.host.send(retry.owner, intent)) this.sent.delete(ref);
    }
  }

  /**
   * A cancel was refused as not open on the venue: each target Keel still holds open waits for
   * the venue's word on it ({@link SweepRetries.venueSaid}), the longest {@link SWEEP_WORD_WAIT_MS}.
   */
  private awaitWord(sent: Sent, refusal: CommandRejectedEvent, now: number): void {
    const targets = this.stillOpen(sent);
    if (targets.length === 0) return;
    for (const target of targets) {
      const narrowed: SweepCancel =
        sent.intent.kind === 'cancelOrders' ? { ...sent.intent, targets: [target] } : sent.intent;
      this.awaitingWord.set(target, { sent: { ...sent, intent: narrowed }, refusal, refusedAt: now });
      if (this.awaitingWord.size > 1_000)
        this.awaitingWord.delete(this.awaitingWord.keys().next().value as string);
    }
    this.host.wakeAt(now + SWEEP_WORD_WAIT_MS + 1);
  }

  /** Reports the targets still open whose word did not come in time; forgets the others. */
  private reportSilent(now: number): void {
    for (const [target, waiting] of this.awaitingWord) {
      if (now - waiting.refusedAt <= SWEEP_WORD_WAIT_MS) continue;
      this.awaitingWord.delete(target);
      if (this.stillOpen(waiting.sent).length === 0) continue;
      this.host.failed(failure(waiting.sent, [target], waiting.refusal, now, 'silent'));
    }
  }

  private remember(ref: string, sent: Sent): void {
    this.sent.set(ref, sent);
    if (this.sent.size > 1_000) this.sent.delete(this.sent.keys().next().value as string);
  }

  /** The targets of a sweep's cancel still open, and not under another sweep's cancel. */
  private stillOpen(sent: Sent): string[] {
    const { state } = this.host;
    if (sent.intent.kind === 'cancelAlgoOrder') {
      const target = sent.intent.target;
      const open =
        this.host.algoInFlight(target) ||
        state.openAlgoOrders(sent.owner).some((algo) => algo.clientAlgoOrderId === target);
      return open ? [target] : [];
    }
    return (sent.intent.targets ?? []).filter((target) => {
      const order = state.orderByRef(target);
      return (
        order !== undefined && !isFinalOrderState(order.orderState) && !this.host.keelCancelInFlight(target)
      );
    });
  }
}

/**
 * @param how - `refused`: the venue refused every cancel and shows the targets open; `silent`: it
 *   refused the last as not open and said nothing of the targets since
 */
function failure(
  sent: Sent,
  targets: readonly string[],
  event: CommandRejectedEvent,
  ts: number,
  how: 'refused' | 'silent' = 'refused',
): SweepFailure {
  const attempts = sent.retries + 1;
  const what = sent.intent.kind === 'cancelAlgoOrder' ? 'algo order' : 'order(s)';
  const whose = `${what} ${targets.join(', ')} of ${sent.owner}`;
  return {
    strategyId: sent.owner,
    ref: event.ref,
    targets,
    attempts,
    code: event.code,
    reason:
      how === 'refused'
        ? `${whose} could not be cancelled by Keel's sweep: the venue refused ` +
          `all ${attempts} cancels (last: ${event.message}, code ${event.code}); still working on the venue with no strategy managing them`
        : `${whose} may still be working on the venue with no strategy managing them: it refused Keel's sweep's ` +
          `cancel as not open (${event.message}, code ${event.code}; ${attempts} cancel(s) sent) and said nothing of them in the ` +
          `${SWEEP_WORD_WAIT_MS / 1000} s since`,
    ts,
  };
}
