import type { Observable } from 'rxjs';
import type { ExecutionPort, VenueSnapshot } from '../../core/execution/index.ts';
import type { Order, UserEvent } from '../../core/model/index.ts';
import type { ApprovedIntent } from '../../core/risk/index.ts';

/** A command sent to the venue whose outcome the session has not heard yet. */
export interface InFlightCommand {
  /** The command's reference: the order's clientOrderId, the algo order's clientAlgoOrderId, the loan's clientId. */
  readonly ref: string;
  readonly kind: 'placeOrder' | 'placeAlgoOrder' | 'borrow' | 'repay';
  /** When it was sent, epoch ms. */
  readonly sentAt: number;
}

/** How a command in flight is recognised as answered. */
interface AwaitedCommand extends InFlightCommand {
  /** The loan a borrow or repay moves (`exchange coin`); absent for orders. */
  readonly loan?: string;
}

/**
 * The session's execution port, keeping the commands whose outcome is not known yet: an order
 * placed until an update of it arrives (its ack, its refusal, the one the client's lookup of a lost
 * ack found, or the client's verdict that the venue never received it), an algo order placed until
 * the algo order or its refusal arrives, a borrow or repay until a loan of its coin is read or it
 * is refused. A stopping session waits for them (see `cancelOpenOrdersOnStop`): an order still on
 * its way when the strategies stop may be live on the venue a moment later, and the client looks a
 * lost ack up only while it runs. Everything else passes through unchanged.
 */
export class InFlightCommands implements ExecutionPort {
  private readonly awaited = new Map<string, AwaitedCommand>();

  /**
   * @param port - the venue's execution port
   * @param now - the wall clock, epoch ms
   * @param onSubmit - told each command as it goes to the venue (default: nothing)
   */
  constructor(
    private readonly port: ExecutionPort,
    private readonly now: () => number = () => Date.now(),
    private readonly onSubmit: (command: ApprovedIntent) => void = () => undefined,
  ) {
    port.events.subscribe((event) => this.answered(event));
  }

  /** The port's User Data events. */
  get events(): Observable<UserEvent> {
    return this.port.events;
  }

  /**
   * Notes the command as in flight, then sends it (an answer given at once settles it at once).
   * @param command - an approved intent
   */
  submit(command: ApprovedIntent): void {
    const intent = command.intent;
    // An order with no reference gets one from the client: it cannot be matched, so it is not kept.
    if (intent.ref !== '') {
      const sentAt = this.now();
      if (intent.kind === 'placeOrder' || intent.kind === 'placeAlgoOrder')
        this.awaited.set(intent.ref, { ref: intent.ref, kind: intent.kind, sentAt });
      else if (intent.kind === 'borrow' || intent.kind === 'repay')
        this.awaited.set(intent.ref, {
          ref: intent.ref,
          kind: intent.kind,
          sentAt,
          loan: `${intent.exchange} ${intent.coin}`,
        });
    }
    this.onSubmit(command);
    this.port.submit(command);
  }

  /**
   * @param sym - the order's symbol
   * @param clientOrderId - its reference
   * @param orderId - the venue's id, when known
   * @returns the port's lookup
   */
  lookupOrder(sym: string, clientOrderId: string, orderId?: string): Promise<Order | undefined> {
    return this.port.lookupOrder(sym, clientOrderId, orderId);
  }

  /** @returns the port's snapshot */
  snapshot(): Promise<VenueSnapshot> {
    return this.port.snapshot();
  }

  /** @returns the commands whose outcome is not known yet, oldest first */
  pending(): readonly InFlightCommand[] {
    return [...this.awaited.values()].map(({ ref, kind, sentAt }) => ({ ref, kind, sentAt }));
  }

  private answered(event: UserEvent): void {
    if (this.awaited.size === 0) return;
    if (event.kind === 'order') this.awaited.delete(event.order.clientOrderId);
    else if (event.kind === 'algoOrder') this.awaited.delete(event.algoOrder.clientAlgoOrderId);
    else if (event.kind === 'commandRejected') this.awaited.delete(event.ref);
    else if (event.kind === 'loan') {
      const loan = `${event.loan.exchange} ${event.loan.coin}`;
      for (const [ref, command] of this.awaited) if (command.loan === loan) this.awaited.delete(ref);
    }
  }
}
