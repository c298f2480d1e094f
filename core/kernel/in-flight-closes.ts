import type {
  ClosePositionIntent,
  ClosePositionsIntent,
  Dec,
  Order,
  Position,
  PositionSide,
} from '../model/index.ts';
import { closedLegs, onlyReducesPosition, signedPositionQty, ZERO } from '../model/index.ts';

/** The signed quantity of a position leg as the kernel holds it (`KernelState.positionQty`). */
export type LegQty = (sym: string, positionSide: PositionSide) => Dec;

/**
 * Whether an order the kernel holds open on a leg, or has sent, could open or grow it
 * (`legMayGrow`): its fill may reach the venue's leg before a close sent now.
 */
export type LegMayGrow = (sym: string, positionSide: PositionSide) => boolean;

/** One position leg a strategy's close reaches, whose close order has not been seen yet. */
interface ClosingLeg {
  readonly ref: string;
  readonly owner: string;
  readonly sym: string;
  readonly positionSide: PositionSide;
  /**
   * The leg's signed size (long > 0) as the close will find it, as far as the kernel can tell: its
   * size when the close was sent (zero for a flat leg an order may open), moved by each fill of an
   * order the kernel knew, and set by each report that does not end the close. The close trades
   * the other way.
   */
  signed: Dec;
  /** The venue's answer never came and the look-ups failed (`COMMAND_OUTCOME_UNKNOWN`). */
  unknown: boolean;
}

/** Who an order the venue made on a leg being closed belongs to, and the close that made it. */
export type CloseOrderOwner =
  | { readonly kind: 'owner'; readonly owner: string; readonly ref: string }
  | { readonly kind: 'ambiguous'; readonly owners: readonly string[] };

/**
 * The position legs strategies' closes are closing. The spec's close requests
 * (`DELETE /api/v1/trading/position(s)`) carry no reference, so a venue names its close orders as
 * it likes (Keel's simulated venue, in backtests and paper, `SIM-C-<n>`) and the kernel cannot
 * tell them from a hand-placed order by name. A close reaches the legs the kernel holds open when it is sent, and
 * the flat ones an open or unanswered order could open ({@link LegMayGrow}: the venue may fill it
 * before the close arrives, and close what it opened). Until the close is over, the first order on
 * a leg it reaches whose reference no strategy owns and that closes a position as the venue
 * reports it (reduce-only, or in BOTH mode selling a LONG leg / buying a SHORT one) is the closing
 * strategy's.
 *
 * The kernel follows the size the close will find each leg at (`signed`): its size when the close
 * was sent, moved by every fill since of an order the kernel knew (a strategy's order filling while
 * the close was on its way, partly or wholly: a venue pushes a fill before the report that holds
 * it), and set by a report the close cannot have made (a larger one on the same side, or the other
 * side in NET mode: a close only ever takes a leg towards flat). A leg's close is over when:
 * - the venue refuses the close (it makes no order);
 * - the leg's close order is seen; when one of a close's orders is, the venue has carried it out,
 *   so it is also over on the legs the kernel holds flat then (the close found them so);
 * - a position report shows the leg where the close may have taken it: flat, or smaller on the
 *   same side than the close would find it (its fill came, or something else reduced or closed it);
 *   a report of the size the close would find does not end it (a mark price change, or the report
 *   of a known fill), unless that size is flat and no order the kernel knows could open the leg
 *   any more (a close reaching the venue now finds nothing);
 * - the close's outcome was unknown: at once on a leg the kernel holds flat (whether an opening
 *   fill reached it first is not known, and no report of a flat leg need come), on the others at
 *   their next report, whatever its size (the command is over: at the size the close would find,
 *   it did not happen; a reconciliation or a look-up reports the leg).
 * So a report keeps a close going only when the fills of known orders or the close's direction
 * explain it, and a fill of an order not seen yet (it may be the close's own) moves nothing. When
 * two strategies' closes of one leg are in flight at once (NET mode: one position per sym), the
 * order cannot be told apart: it belongs to neither, and both closes of that leg end (the safe
 * rule: a strategy is never told of an order that may be another's).
 */
export class InFlightCloses {
  private legs: ClosingLeg[] = [];

  /**
   * @param legQty - the kernel's position legs, read when a close is sent
   * @param legMayGrow - whether an order could open a leg, asked of the flat legs when a close is sent
   */
  constructor(
    private readonly legQty: LegQty,
    private readonly legMayGrow: LegMayGrow = () => false,
  ) {}

  /**
   * Records a close about to be sent: the legs it reaches (one leg; every leg of a sym for NONE or a
   * close of several syms) that are open, or flat with an order that could open them.
   * @param intent - the close of one or several syms
   * @param owner - the strategy sending it
   */
  sending(intent: ClosePositionIntent | ClosePositionsIntent, owner: string): void {
    for (const { sym, positionSide } of closedLegs(intent)) {
      const signed = this.legQty(sym, positionSide);
      if (!signed.isZero() || this.legMayGrow(sym, positionSide))
        this.legs.push({ ref: intent.ref, owner, sym, positionSide, signed, unknown: false });
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
   * report of its open legs says (see {@link positionReported}); on a leg the kernel holds flat it is
   * over now: no report of it need come, and whether an opening fill reached it first is not known.
   * @param ref - the close's reference
   */
  outcomeUnknown(ref: string): void {
    this.drop((leg) => leg.ref === ref && leg.signed.isZero());
    for (const leg of this.legs) if (leg.ref === ref) leg.unknown = true;
  }

  /**
   * A close order named after its command was seen (a venue that echoes the reference): that leg's
   * close is over, and so is it on the legs the kernel holds flat (the venue found them so).
   * @param ref - the close's reference
   * @param order - its order
   */
  seen(ref: string, order: Order): void {
    this.drop((leg) => leg.ref === ref && (onLeg(leg, order.sym, order.positionSide) || leg.signed.isZero()));
  }

  /**
   * A position report: a leg reported where its close may have taken it (flat, or smaller on the
   * same side than the close would find it) is no longer being closed by it, nor is one reported
   * flat as expected that no order could open any more, nor one whose close's outcome is unknown,
   * whatever its size (the command is over: at that size, the close did not happen; a
   * reconciliation or a look-up reports the leg). Otherwise the close has not acted yet: it will
   * find the leg at the reported size.
   * @param position - the reported position
   */
  positionReported(position: Position): void {
    const { sym, positionSide } = position;
    const reported = signedPositionQty(position);
    const over = (leg: ClosingLeg) =>
      leg.unknown ||
      (reported.eq(leg.signed)
        ? reported.isZero() && !this.legMayGrow(sym, positionSide)
        : mayHaveClosed(leg.signed, reported));
    this.drop((leg) => onLeg(leg, sym, positionSide) && over(leg));
    for (const leg of this.legs) if (onLeg(leg, sym, positionSide)) leg.signed = reported;
  }

  /**
   * A fill of an order the kernel knew before it (not a close in flight's: its order, once seen,
   * ends that close) moved a leg: the close will find the leg moved by it, and a report of that
   * size is its doing, not the close's.
   * @param sym - the fill's symbol
   * @param positionSide - the leg it was booked on
   * @param qty - its signed quantity (BUY > 0)
   */
  filled(sym: string, positionSide: PositionSide, qty: Dec): void {
    for (const leg of this.legs) if (onLeg(leg, sym, positionSide)) leg.signed = leg.signed.add(qty);
  }

  /**
   * The strategy an order no strategy owns belongs to, when a close of its leg is in flight and
   * it closes a position; that leg's closes are then over, and so are they on the legs the kernel
   * holds flat (the venue carried them out and found those so).
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
    const refs = new Set(
      this.legs.filter((leg) => onLeg(leg, order.sym, order.positionSide)).map((l) => l.ref),
    );
    this.drop(
      (leg) => onLeg(leg, order.sym, order.positionSide) || (refs.has(leg.ref) && leg.signed.isZero()),
    );
    return owners.size === 1
      ? { kind: 'owner', owner: first.owner, ref: first.ref }
      : { kind: 'ambiguous', owners: [...owners] };
  }

  /**
   * The signed size (long > 0) of a leg that closes in flight will close, as they will find it (see
   * {@link ClosingLeg.signed}): until its close order is seen, the risk gate counts it as a resting
   * reduce-only order on the other side.
   * @param sym - the symbol
   * @param positionSide - the leg
   * @param owner - only this strategy's closes; undefined = every strategy's
   * @returns the size (the largest of several closes of the leg), zero when none is in flight
   */
  closingQty(sym: string, positionSide: PositionSide, owner?: string): Dec {
    let closing = ZERO;
    for (const leg of this.legs) {
      if (!onLeg(leg, sym, positionSide) || (owner !== undefined && leg.owner !== owner)) continue;
      if (leg.signed.abs().gt(closing.abs())) closing = leg.signed;
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

/**
 * Whether a close that would find a leg at `from` may have taken it to `to`: a close only ever
 * takes a leg towards flat, so it may have when `to` is flat or smaller on the same side.
 */
function mayHaveClosed(from: Dec, to: Dec): boolean {
  return to.isZero() || (to.isNeg() === from.isNeg() && to.abs().lt(from.abs()));
}
