import type { Logger } from 'pino';
import {
  type CancelOrderIntent,
  type CancelOrdersIntent,
  COMMAND_NOT_APPLIED,
  type ModifyOrderIntent,
} from '../../model/index.ts';

/** How a modify held for its order's lookups goes on once they end, and where its refusal goes. */
export interface HeldModifyChannel {
  /** Sends it (its order's lookups ended with the order still open in Keel). */
  readonly send: () => void;
  /** Tells the strategy it was never sent, with a Keel-local code. */
  readonly refuse: (error: Error, keelCode: number) => void;
  /** Whether its order is still open in Keel. */
  readonly stillOpen: () => boolean;
  /** Whether the client stopped. */
  readonly stopped: () => boolean;
}

/**
 * Modifies of orders the venue said it does not know, held while Keel looks those orders up (see
 * `UnknownOrderLookups`): sending one would only be refused as unknown again, and a strategy
 * re-quoting on every tick would flood the venue with modifies until the verdict. Once the lookups
 * end, a held modify is sent if its order is still open in Keel (the venue's answer showed it
 * open), else refused as not applied (the verdict ended it, or the venue's answer showed it
 * final); a cancel of its order, or the client's stop, refuses it as not applied at once, so a
 * stop's cancels (and the stop's wait for what is in flight) are not held up by it.
 */
export class ModifiesHeldForLookups {
  /** The modifies held, each with how to refuse it now. */
  private readonly held = new Map<ModifyOrderIntent, (why: string) => void>();

  /** @param logger - where a hold is said */
  constructor(private readonly logger: Logger) {}

  /**
   * Holds a modify until its order's lookups end.
   * @param intent - the modify
   * @param strategy - its strategy, for the log
   * @param lookup - settles once its order is no longer looked up
   * @param channel - how it is sent or refused
   */
  hold(intent: ModifyOrderIntent, strategy: string, lookup: Promise<void>, channel: HeldModifyChannel): void {
    this.logger.info(
      { ref: intent.ref, target: intent.target, sym: intent.sym, strategy },
      'modify held: the venue did not know its order, which Keel is looking up',
    );
    let settled = false;
    const settle = (why: string | undefined): void => {
      if (settled) return;
      settled = true;
      this.held.delete(intent);
      const reason = why ?? this.reasonNotToSend(intent, channel);
      if (reason === undefined) channel.send();
      else channel.refuse(new Error(`modifyOrder ${intent.ref} not sent: ${reason}`), COMMAND_NOT_APPLIED);
    };
    this.held.set(intent, settle);
    void lookup.then(() => settle(undefined));
  }

  /**
   * A cancel is on its way: the modifies held for the orders it acts on (a cancel of a whole sym's
   * orders: every one held on that sym) are refused as not applied.
   * @param cancel - the cancel
   */
  cancelling(cancel: CancelOrderIntent | CancelOrdersIntent): void {
    const targets = cancel.kind === 'cancelOrder' ? [cancel.target] : cancel.targets;
    for (const [modify, refuseNow] of [...this.held]) {
      const acted =
        targets === undefined
          ? cancel.sym === undefined || cancel.sym === modify.sym
          : targets.includes(modify.target);
      if (acted) refuseNow(`a cancel of its order ${modify.target} came while Keel looked the order up`);
    }
  }

  /** The client is stopping: every held modify is refused as not applied. */
  stop(): void {
    for (const refuseNow of [...this.held.values()])
      refuseNow('the client stopped while its order was looked up');
  }

  private reasonNotToSend(intent: ModifyOrderIntent, channel: HeldModifyChannel): string | undefined {
    if (channel.stopped()) return 'the client stopped while its order was looked up';
    if (channel.stillOpen()) return undefined;
    return `its order ${intent.target} ended while Keel looked it up (the venue had said it does not know it)`;
  }
}
