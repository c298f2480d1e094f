import { EMPTY, type Observable } from 'rxjs';
import type { ExecutionPort, VenueSnapshot } from '../../core/execution/index.ts';
import type { Order, UserEvent } from '../../core/model/index.ts';
import type { ApprovedIntent } from '../../core/risk/index.ts';

/**
 * An execution port bound to the simulated venue once it exists. A backtest with a warm-up builds
 * its kernel (and starts its strategies) before it knows where trading starts, which the venue's
 * start time and starting prices depend on; nothing reaches the port meanwhile, as every intent of
 * a warm-up is denied. Its events are never read: the runner hands the venue's User Data to the
 * kernel itself.
 */
export class LateExecutionPort implements ExecutionPort {
  readonly events: Observable<UserEvent> = EMPTY;
  private port: ExecutionPort | undefined;

  /** @param onSubmit - told each command as it goes to the venue (default: nothing) */
  constructor(private readonly onSubmit: (command: ApprovedIntent) => void = () => undefined) {}

  /** @param port - the simulated venue, from now on behind every call */
  bind(port: ExecutionPort): void {
    this.port = port;
  }

  /**
   * @param command - an approved command
   * @throws Error when no venue is bound yet (a bug: the warm-up denies every intent)
   */
  submit(command: ApprovedIntent): void {
    const port = this.bound();
    this.onSubmit(command);
    port.submit(command);
  }

  /** @returns the bound venue's answer */
  lookupOrder(sym: string, clientOrderId: string, orderId?: string): Promise<Order | undefined> {
    return this.bound().lookupOrder(sym, clientOrderId, orderId);
  }

  /** @returns the bound venue's snapshot */
  snapshot(): Promise<VenueSnapshot> {
    return this.bound().snapshot();
  }

  private bound(): ExecutionPort {
    if (this.port === undefined)
      throw new Error('backtest: a command reached the venue before the warm-up ended (no venue yet)');
    return this.port;
  }
}
