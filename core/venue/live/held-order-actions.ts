import type { Logger } from 'pino';
import { COMMAND_NOT_APPLIED, VENUE_ORDER_NOT_FOUND } from '../../model/index.ts';
import { VenueError } from '../errors.ts';
import type { TimerPort } from '../timer-port.ts';
import { CancellableWaits } from './cancellable-waits.ts';
import type { OrderActionIntent } from './order-actions.ts';
import type { OrderPlacement } from './order-placement.ts';

/**
 * How long a modify or cancel waits for the venue's word on the orders it acts on whose place the
 * venue has not answered, before it is sent anyway, ms. Keel's choice: twice the private socket's
 * reply timeout, so an ack that is only late still comes first, and the lookups of a lost one have
 * had a few tries; the cancel of a kill switch's sweep is not kept off the venue for the lookups'
 * 30 s (or for ever while they fail) when the order is most likely booked.
 */
export const DEFAULT_HELD_COMMAND_WAIT_MS = 10_000;

/** How a held modify or cancel goes out, and where its refusal goes. */
export interface HeldActionChannel {
  /**
   * Sends the action.
   * @param refuse - told why the venue refused it
   * @returns when the venue answered it or it failed (never rejects)
   */
  readonly send: (refuse: (error: unknown) => void) => Promise<void>;
  /** Told why the action failed: the venue's refusal, or why it was never sent (with a Keel-local code). */
  readonly refuse: (error: unknown, keelCode?: number) => void;
}

/** What {@link HeldOrderActions} needs. */
export interface HeldOrderActionsOptions {
  /** Knows which orders' places the venue has not answered, and tells when it has. */
  readonly placement: Pick<OrderPlacement, 'outcomesKnown' | 'unacknowledged'>;
  /** The client's timers. */
  readonly timer: Pick<TimerPort, 'setTimer'>;
  /** How long an action waits for its orders' acks before it is sent anyway, ms. */
  readonly waitMs: number;
  readonly logger: Logger;
}

/** How a held action's wait ended. */
type WaitEnd = 'known' | 'due' | 'stopped';

/**
 * Modifies and cancels held until the venue answered the places of the orders they act on (one
 * reaching the venue before its order would be refused as unknown, and the order would then go
 * live with nobody acting on it), but at most `waitMs`: an order whose ack was lost is most likely
 * booked, and while its lookups fail (or keep answering "not found" for their 30 s) the action
 * would wait with them. Then it is sent anyway, logged at warn; when the venue refuses it as
 * unknown (401018) while an order's place is still unanswered, it is held again, without a bound,
 * until the venue's word on that order (its ack, an update, or Keel's verdict after the lookups),
 * then sent again. When the client stops first it is never sent: refused as not applied.
 */
export class HeldOrderActions {
  /** Each held action's wait: settles once it is sent (or reported never sent). */
  private readonly held = new Set<Promise<void>>();
  private readonly waits: CancellableWaits;

  /** @param options - the placement, the timer, the bound and the logger */
  constructor(private readonly options: HeldOrderActionsOptions) {
    this.waits = new CancellableWaits(options.timer);
  }

  /**
   * Holds an action until the venue answered the places of its orders (or `waitMs` passed), then
   * sends it.
   * @param intent - the modify or cancel
   * @param unacked - the orders it acts on whose places the venue has not answered
   * @param channel - how it goes out and where its refusal goes
   * @returns when it was answered, or reported never sent (the client stopped first)
   */
  hold(intent: OrderActionIntent, unacked: readonly string[], channel: HeldActionChannel): Promise<void> {
    return this.holdFor(intent, unacked, channel, true);
  }

  /**
   * @returns a promise per action held, each settling once it is sent or reported never sent;
   *   empty when none is held
   */
  pending(): Promise<void>[] {
    return [...this.held];
  }

  /** Cancels the waits' bounds (the client is stopping: the placement tells the held actions so). */
  stop(): void {
    this.waits.cancelAll();
  }

  private holdFor(
    intent: OrderActionIntent,
    unacked: readonly string[],
    channel: HeldActionChannel,
    bounded: boolean,
  ): Promise<void> {
    let answered: Promise<void> = Promise.resolve();
    const sent = this.waitFor(unacked, bounded).then((end) => {
      if (end === 'stopped')
        channel.refuse(
          new Error(
            `${intent.kind} ${intent.ref} not sent: the client stopped before the venue acknowledged the orders it acts on`,
          ),
          COMMAND_NOT_APPLIED,
        );
      else answered = this.send(intent, unacked, channel, end === 'due');
    });
    this.held.add(sent);
    void sent.then(() => this.held.delete(sent));
    return sent.then(() => answered);
  }

  private waitFor(unacked: readonly string[], bounded: boolean): Promise<WaitEnd> {
    const known = this.options.placement.outcomesKnown(unacked);
    if (known === undefined) return Promise.resolve('known');
    const outcome = known.then((yes): WaitEnd => (yes ? 'known' : 'stopped'));
    if (!bounded) return outcome;
    const bound = this.waits.wait(this.options.waitMs);
    void outcome.then(bound.wake);
    return Promise.race([outcome, bound.done.then((): WaitEnd => 'due')]);
  }

  private async send(
    intent: OrderActionIntent,
    unacked: readonly string[],
    channel: HeldActionChannel,
    early: boolean,
  ): Promise<void> {
    const { placement, logger, waitMs } = this.options;
    if (early)
      logger.warn(
        {
          ref: intent.ref,
          kind: intent.kind,
          unacknowledged: placement.unacknowledged(unacked),
          waitedMs: waitMs,
        },
        "order command sent without the venue's word on its orders (their acks lost, their lookups unanswered): the venue may refuse it as unknown",
      );
    let unknownToVenue = false;
    await channel.send((error) => {
      if (early && refusesAsUnknown(error) && placement.unacknowledged(unacked).length > 0)
        unknownToVenue = true;
      else channel.refuse(error);
    });
    if (!unknownToVenue) return;
    const still = placement.unacknowledged(unacked);
    logger.warn(
      { ref: intent.ref, kind: intent.kind, unacknowledged: still },
      'order command refused as unknown before the venue acknowledged its orders: held again until it does',
    );
    return this.holdFor(intent, still, channel, false);
  }
}

function refusesAsUnknown(error: unknown): boolean {
  return error instanceof VenueError && error.code === VENUE_ORDER_NOT_FOUND;
}
