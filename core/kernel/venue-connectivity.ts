import type { Intent, VenueStatus, VenueStreamState } from '../model/index.ts';
import type { KernelDenial } from './intent-ownership.ts';

/**
 * Intents that build on Keel's view of orders and positions and add or change exposure: denied
 * while that view may be stale. Cancels (of orders and algo orders), closes, loans and the
 * position mode still go out (Keel's choice): they take exposure off or do not depend on the
 * view, and the live adapter sends a cancel over REST while the private socket is down.
 */
const GATED_KINDS: ReadonlySet<Intent['kind']> = new Set([
  'placeOrder',
  'modifyOrder',
  'placeAlgoOrder',
  'replaceAlgoOrder',
]);

/**
 * The kernel's knowledge of the venue's streams. The private (User Data / order-entry) stream
 * starts reconciled: a port that reports no status (the simulated venue) is always up, and a live
 * session's kernel sees its first login and reconciliation before the strategies start. From the
 * private stream's `down` until the `reconciled` after it is back, new orders and modifies are
 * denied with the check `kernel.venueDisconnected`: they would be built on stale orders and
 * positions (a fill made during the outage is not known yet).
 */
export class VenueConnectivity {
  private privateState: VenueStreamState = 'reconciled';
  private marketState: VenueStreamState = 'up';
  private privateSince = 0;
  private privateReason: string | undefined;
  /** Why the private stream, back, is not reconciled yet (a repeat of `up` with a reason), if said. */
  private unreconciledReason: string | undefined;

  /**
   * Notes a status change of a stream. A repeat of the private stream's `up` with a reason says why
   * it is not reconciled yet (its reconciliation keeps failing): named in the denials from then on.
   * @param status - the change
   * @returns false when it changes no state (a repeat), so strategies need not hear it
   */
  observe(status: VenueStatus): boolean {
    if (status.stream === 'market') {
      if (this.marketState === status.state) return false;
      this.marketState = status.state;
      return true;
    }
    if (this.privateState === status.state) {
      if (status.state === 'up' && status.reason !== undefined) this.unreconciledReason = status.reason;
      return false;
    }
    this.unreconciledReason = undefined;
    // Only a drop starts an outage; `up` after it keeps the time the view went stale.
    if (status.state === 'down' || this.privateState === 'reconciled') {
      this.privateSince = status.ts;
      this.privateReason = status.reason;
    }
    this.privateState = status.state;
    return true;
  }

  /** The private stream's state: `reconciled` when orders and positions are the venue's. */
  get privateStream(): VenueStreamState {
    return this.privateState;
  }

  /** The market stream's state (`down` or `up`). */
  get marketStream(): VenueStreamState {
    return this.marketState;
  }

  /**
   * Why Keel's view of orders and positions may be stale now, e.g. `the venue's private stream
   * has been down since 2026-11-28T19:40:00.000Z (closed with code 1006)`.
   * @returns a sentence part, or undefined when the private stream is reconciled
   */
  staleness(): string | undefined {
    if (this.privateState === 'reconciled') return undefined;
    const since = new Date(this.privateSince).toISOString();
    const why = this.privateReason === undefined ? '' : ` (${this.privateReason})`;
    return this.privateState === 'down'
      ? `the venue's private stream has been down since ${since}${why}`
      : `the venue's private stream is back after an outage since ${since}${why} but not reconciled yet` +
          (this.unreconciledReason === undefined ? '' : `: ${this.unreconciledReason}`);
  }

  /**
   * Whether an intent may go out on the current view.
   * @param intent - the intent
   * @returns the denial, or undefined when the private stream is reconciled or the intent is
   *   not one that builds on the view
   */
  check(intent: Intent): KernelDenial | undefined {
    const where = this.staleness();
    if (where === undefined || !GATED_KINDS.has(intent.kind)) return undefined;
    return {
      check: 'kernel.venueDisconnected',
      reason: `${where}: ${intent.kind} ${intent.ref} is not sent on possibly stale orders and positions; cancels still go out`,
    };
  }
}
