import { type Position, positionKey } from '../../model/index.ts';

/**
 * The `updateAt` of the newest position report the live client passed on, per leg, so a report
 * older than it (Positions pushes delivered out of order, a snapshot's position read before a push)
 * is not passed on: the kernel, and the local view reconciliation compares with the venue's, keep
 * the newer one. A report of the same time is passed on, as the venue's latest word.
 */
export class NewestPositionReports {
  /** Leg (`positionKey`) -> `updateAt` of its newest report passed on, epoch ms. */
  readonly #updateAt = new Map<string, number>();

  /**
   * Admits a report to be passed on unless its leg's newest one passed on is later.
   * @param position - the report
   * @returns false when the report is older than one of its leg passed on already
   */
  admit(position: Position): boolean {
    const key = positionKey(position.sym, position.positionSide);
    if (position.updateAt < (this.#updateAt.get(key) ?? Number.NEGATIVE_INFINITY)) return false;
    this.#updateAt.set(key, position.updateAt);
    return true;
  }
}
