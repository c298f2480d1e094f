import type {
  ClosePositionIntent,
  ClosePositionsIntent,
  Dec,
  Order,
  Position,
  PositionSide,
} from '../model/index.ts';
import { onlyReducesPosition, ZERO } from '../model/index.ts';

/** The signed quantity of a position leg as the kernel holds it (`KernelState.positionQty`). */
export type LegQty = (sym: string, positionSide: PositionSide) => Dec;

/** One position leg a strategy's close reaches, whose close order has not been seen yet. */
interface ClosingLeg {
  readonly ref: string;
  readonly owner: string;
  readonly sym: string;
  readonly positionSide: PositionSide;
  /** The leg's size when the close was sent: a report of another size means it was closed or changed. */
  readonly size: Dec;
  /** The same, signed (long > 0): the close trades the other way. */
  readonly signed: Dec;
  /** The venue's answer never came and the look-ups failed (`COMMAND_OUTCOME_UNKNOWN`). */
  unknown: boolean;
}

/** Who an order the venue made on a leg being closed belongs to, and the close that made it. */
export type CloseOrderOwner =
  | { readonly kind: 'owner'; readonly owner: string; readonly ref: string }
  | { readonly kind: 'ambiguous'; readonly owners: readonly string[] };

const LEGS: readonly PositionSide[] = ['NONE', 'LONG', 'SHORT'];

/**
 * The position legs strategies' closes are closing. The spec's close requests
 * (`DELETE /api/v1/trading/position(s)`) carry no reference, so a venue names its close orders as
 * it likes (Keel's paper venue `paper-close-N`) and the kernel cannot tell them from a hand-placed
 * order by name. From sending until the venue refuses the close, the leg's close order is seen, or
 * a position report shows the leg at another size than when the close was sent (its fill came, or
 * something else closed it; a report of the same size, e.g. a mark price change, does not end it,
 * unless the close's outcome was unknown: that command is over, so the report shows it did nothing),
 * the first order on that leg whose reference no strategy owns and that closes a position as the
 * venue reports it (reduce-only, or in BOTH mode selling a LONG leg / buying a SHORT one) is the
 * closing strategy's. Only the legs the kernel holds open when the close is sent are reached (a
 * close of a flat leg is refused by the venue). When two strategies' closes of one leg are in
 * flight at once (NET mode: one position per sym), the order cannot be told apart: it belongs to
 * neither, and both closes of that leg end (the safe rule: a strategy is never told of an order
 * that may be another's).
 */
export class InFlightCloses {
  private legs: ClosingLeg[] = [];

  /** @param legQty - the kernel's position legs, read when a close is sent */
  constructor(private readonly legQty: LegQty) {}

  /**
   * Records a close about to be sent: the open legs it reaches (one leg; every open leg of a sym
   * for NONE or a close of several syms).
   * @param intent - the close of one or several syms
   * @param owner - the strategy sending it
   */
  sending(intent: ClosePositionIntent | ClosePositionsIntent, owner: string): void {
    const reached: readonly [string, PositionSide][] =
      intent.kind === 'closePosition'
        ? [[intent.sym, intent.positionSide]]
        : intent.symList.map((sym) => [sym, 'NONE']);
    for (const [sym, side] of reached) {
      for (const positionSide of side === 'NONE' ? LEGS : [side]) {
        const signed = this.legQty(sym, positionSide);
        if (!signed.isZero())
          this.legs.push({
            ref: intent.ref,
            owner,
            sym,
            positionSide,
            size: signed.abs(),
            signed,
            unknown: false,
          });
      }
    }
  }

  /**
   * The venue refused a close: it makes no order.
   * @param ref - the close's reference
   */
  refused(ref: string): void {
    this.drop((leg) => leg.ref === ref);
  }

  /**
   * The venue's answer to a close never came and the look-ups failed: it may have closed. The next
   * report of its legs says (see {@link positionReported}).
   * @param ref - the close's reference
   */
  outcomeUnknown(ref: string): void {
    for (const leg of this.legs) if (leg.ref === ref) leg.unknown = true;
  }

  /**
   * A close order named after its command was seen (a venue that echoes the reference, as Keel's
   * simulated one does): that leg's close is over.
   * @param ref - the close's reference
   * @param order - its order
   */
  seen(ref: string, order: Order): void {
    this.drop((leg) => leg.ref === ref && onLeg(leg, order.sym, order.positionSide));
  }

  /**
   * A position report: a leg reported at another size than when its close was sent is no longer
   * being closed by it; nor is one whose close's outcome is unknown, whatever its size (the
   * command is over: at the sent size, the close did not happen; a reconciliation or a look-up
   * reports the leg).
   * @param position - the reported position
   */
  positionReported(position: Position): void {
    this.drop(
      (leg) =>
        onLeg(leg, position.sym, position.positionSide) &&
        (leg.unknown || !position.positionQty.abs().eq(leg.size)),
    );
  }

  /**
   * The strategy an order no strategy owns belongs to, when a close of its leg is in flight and
   * it closes a position; that leg's closes are then over.
   * @param order - an order whose reference no strategy owns or inherits
   * @returns the owner and the close's reference (the earliest, when the owner sent several closes
   *   of the leg), ambiguous when strategies' closes of the leg are in flight at once, or undefined
   *   when the order is no close's
   */
  claim(order: Order): CloseOrderOwner | undefined {
    if (!onlyReducesPosition(order)) return undefined;
    const owners = new Set<string>();
    let first: ClosingLeg | undefined;
    for (const leg of this.legs) {
      if (!onLeg(leg, order.sym, order.positionSide)) continue;
      owners.add(leg.owner);
      first ??= leg;
    }
    if (first === undefined) return undefined;
    this.drop((leg) => onLeg(leg, order.sym, order.positionSide));
    return owners.size === 1
      ? { kind: 'owner', owner: first.owner, ref: first.ref }
      : { kind: 'ambiguous', owners: [...owners] };
  }

  /**
   * The signed size (long > 0) of a leg that closes in flight will close, as it was when they
   * were sent: until its close order is seen, the risk gate counts it as a resting reduce-only
   * order on the other side.
   * @param sym - the symbol
   * @param positionSide - the leg
   * @param owner - only this strategy's closes; undefined = every strategy's
   * @returns the size (the largest of several closes of the leg), zero when none is in flight
   */
  closingQty(sym: string, positionSide: PositionSide, owner?: string): Dec {
    let closing = ZERO;
    for (const leg of this.legs) {
      if (!onLeg(leg, sym, positionSide) || (owner !== undefined && leg.owner !== owner)) continue;
      if (leg.size.gt(closing.abs())) closing = leg.signed;
    }
    return closing;
  }

  /** @returns whether no close is in flight (checked first on every User Data event) */
  get idle(): boolean {
    return this.legs.length === 0;
  }

  private drop(over: (leg: ClosingLeg) => boolean): void {
    this.legs = this.legs.filter((leg) => !over(leg));
  }
}

function onLeg(leg: ClosingLeg, sym: string, positionSide: PositionSide): boolean {
  return leg.sym === sym && leg.positionSide === positionSide;
}
