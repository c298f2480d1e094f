import type { OrderTracker } from '../execution/index.ts';
import type { UserEvent } from '../model/index.ts';
import { foldUserEvent } from './fold-user-event.ts';
import type { IntentGate } from './kernel-options.ts';
import type { KernelState } from './kernel-state.ts';
import type { IntentDenied } from './strategy-events.ts';
import type { StrategyRunner } from './strategy-runner.ts';

/**
 * How User Data reaches the kernel state and the strategies: folded first (a stale or duplicate
 * update stops there), then delivered to the strategy that owns the order, to every strategy for
 * positions, to the kill switch when money changed hands, and as a denial for a command the
 * venue refused.
 */
export class UserDataRouting {
  private readonly byId: ReadonlyMap<string, StrategyRunner>;

  /**
   * @param state - the kernel state User Data is folded into
   * @param runners - every strategy of the kernel
   * @param gate - the risk gate, shown equity after fills and account updates
   * @param tracker - in-flight tracking, shown every order update
   * @param deny - delivers a denial to its strategy
   */
  constructor(
    private readonly state: KernelState,
    private readonly runners: readonly StrategyRunner[],
    private readonly gate: IntentGate,
    private readonly tracker: OrderTracker | undefined,
    private readonly deny: (runner: StrategyRunner, denial: IntentDenied) => void,
  ) {
    this.byId = new Map(runners.map((runner) => [runner.id, runner]));
  }

  /**
   * Folds one User Data event into the state and delivers it.
   * @param event - the event
   */
  route(event: UserEvent): void {
    if (event.kind === 'order') this.tracker?.onOrderUpdate(event.order);
    if (!foldUserEvent(this.state, event)) return;
    switch (event.kind) {
      case 'order':
        this.ownerOf(event.order.clientOrderId)?.deliverOrder(event.order);
        return;
      case 'execution':
        this.observeEquity();
        this.ownerOf(event.execution.clientOrderId)?.deliverFill(event.execution);
        return;
      case 'account':
        this.observeEquity();
        return;
      case 'position':
        for (const runner of this.runners) runner.deliverPosition(event.position);
        return;
      case 'commandRejected': {
        const runner = this.ownerOf(event.ref);
        if (runner === undefined) return;
        this.deny(runner, {
          kind: 'denied',
          strategyId: runner.id,
          ref: event.ref,
          intentKind: event.intentKind,
          source: 'venue',
          check: `venue.${event.code}`,
          reason: `the venue refused ${event.intentKind} ${event.ref}: ${event.message} (code ${event.code})`,
          ts: this.state.now(),
        });
        return;
      }
      default:
        return;
    }
  }

  /** Money changed hands: let the kill switch see equity now rather than at the next intent. */
  private observeEquity(): void {
    if (this.gate.observeEquity !== undefined) this.gate.observeEquity(this.state.now(), this.state.equity());
  }

  private ownerOf(ref: string): StrategyRunner | undefined {
    const id = this.state.orders.ownerOf(ref);
    return id === undefined ? undefined : this.byId.get(id);
  }
}
