import { positionKey, type UserEvent } from '../../model/index.ts';

/**
 * What a reconciliation would correct that an event is about: its order (by clientOrderId and by
 * orderId), position, asset, the account, its algo order or loan. Other kinds (executions,
 * liquidations...) are not folded last-write-wins, so no snapshot value can overwrite them.
 */
function keysOf(event: UserEvent): readonly string[] {
  switch (event.kind) {
    case 'order': {
      const { clientOrderId, orderId } = event.order;
      const keys: string[] = [];
      if (clientOrderId !== '') keys.push(`order ref ${clientOrderId}`);
      if (orderId !== '') keys.push(`order id ${orderId}`);
      return keys;
    }
    case 'position':
      return [`position ${positionKey(event.position.sym, event.position.positionSide)}`];
    case 'asset':
      return [`asset ${event.asset.coin}`];
    case 'account':
      return ['account'];
    case 'algoOrder':
      return [`algo ${event.algoOrder.clientAlgoOrderId}`];
    case 'loan':
      return [`loan ${event.loan.exchange}:${event.loan.coin}`];
    default:
      return [];
  }
}

/**
 * What an update from the venue changed that a snapshot begun before it may hold an older value
 * of: what the update is about, and for an execution its leg's position. A fill moves the position
 * as surely as a position push does (the kernel counts it on top of the leg's latest report), and
 * the spec names no Positions channel, so the fill may be the only word of it. Not the settlement
 * asset nor the account, though a fill changes their balances too: Keel folds fills into neither,
 * so what it holds of them is a report older than the snapshot (unless a push of them came after
 * it began, which is noted for itself), and dropping the snapshot's would keep an older one still.
 */
function updatedKeysOf(event: UserEvent): readonly string[] {
  if (event.kind !== 'execution') return keysOf(event);
  return [`position ${positionKey(event.execution.sym, event.execution.positionSide)}`];
}

/**
 * Which orders, positions, assets, account and algo orders the venue updated after a snapshot was
 * begun (a position also by a fill of its leg). A REST snapshot is older than every push that
 * arrives while it is taken (and while the executions are caught up on and vanished orders looked
 * up), so reconciliation must not let the snapshot's value overwrite such a push. Updates are
 * numbered; a snapshot notes the number it began at and asks whether a key was updated after it.
 * Keys are remembered only while a snapshot is open, so a long session's memory stays bounded.
 */
export class ChangesSinceSnapshot {
  private sequence = 0;
  private open = 0;
  /** Key -> number of the newest update of it, while a snapshot is open. */
  private readonly updated = new Map<string, number>();

  /**
   * Starts watching for updates newer than a snapshot about to be taken.
   * @returns the mark to ask {@link ChangesSinceSnapshot.updatedSince} with and to end with
   */
  begin(): number {
    this.open++;
    return this.sequence;
  }

  /**
   * Stops watching for one snapshot (its corrections are emitted or dropped); with none left open,
   * every remembered key is forgotten.
   */
  end(): void {
    this.open = Math.max(0, this.open - 1);
    if (this.open === 0) this.updated.clear();
  }

  /**
   * Notes an update from the venue (a push, an ack, a lookup's answer): newer than any snapshot
   * open now. An execution updates its leg's position (it is never superseded itself: no snapshot
   * value overwrites a fill).
   * @param event - the User Data event
   */
  note(event: UserEvent): void {
    if (this.open === 0) return;
    this.sequence++;
    for (const key of updatedKeysOf(event)) this.updated.set(key, this.sequence);
  }

  /**
   * @param event - a corrective event a snapshot begun at `mark` would emit
   * @param mark - the snapshot's mark
   * @returns whether the venue updated what the event is about after the snapshot was begun
   */
  updatedSince(event: UserEvent, mark: number): boolean {
    return keysOf(event).some((key) => (this.updated.get(key) ?? 0) > mark);
  }
}
