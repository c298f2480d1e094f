import type {
  ClosePositionIntent,
  ClosePositionsIntent,
  Dec,
  LiquidationNodeType,
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

/**
 * Whether the venue makes the orders of the position closes on a leg in the order the kernel sent
 * the closes. `sendOrder`: Keel's simulated venue runs every command in the order sent, one at a
 * time, each close making its orders as it runs; the paper venue runs a REST command before
 * answering it, and the live client sends a command on a sym only once every REST command sent
 * before it on that sym was answered (`SymCommandOrder`; closePositions is ordered on each of its
 * syms, a held command goes in the order submitted, and a command whose reply was lost is never
 * sent again, the next going once its look-ups ended). `unknown`: a live venue, whose spec does
 * not say whether a close's order exists when its request is answered.
 */
export type CloseOrdering = 'sendOrder' | 'unknown';

/**
 * An order on a leg strategies' closes reached that the kernel gave to no strategy, though a close
 * may have made it: for the run's warnings. Orders of the same leg, strategies and reason are
 * counted in one.
 */
export interface UnattributedCloseOrder {
  readonly sym: string;
  readonly positionSide: PositionSide;
  /** The strategies whose close may have made it. */
  readonly owners: readonly string[];
  /**
   * `ambiguous`: closes of several strategies were in flight on the leg (see {@link CloseOrdering});
   * `endedFirst`: the close had ended before the order came (a position report or its unknown
   *   outcome ended it, or the order of another close of the leg it could not be told from).
   */
  readonly reason: 'ambiguous' | 'endedFirst';
  /** The clientOrderId the venue gave the first such order. */
  readonly firstOrder: string;
  /** How many such orders. */
  readonly count: number;
}

/** A close a report ended on a leg before its order was seen. */
interface EndedClose {
  readonly ref: string;
  readonly owner: string;
}

/**
 * The closes of a leg that ended before their order was seen, and how many orders that may be
 * theirs came since: a close makes at most one order on a leg, so once as many came (or the others
 * were refused), an order on the leg is none of theirs.
 */
interface EndedCloses {
  readonly closes: readonly EndedClose[];
  readonly orders: number;
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
 * explain it, and a fill of an order not seen yet (it may be the close's own) moves nothing.
 *
 * Several closes of one leg in flight at once (two strategies', NET mode: one position per sym):
 * - where the venue makes close orders in the order the kernel sends the closes
 *   ({@link CloseOrdering} `sendOrder`: Keel's simulated venue in a backtest, and the paper venue
 *   behind the live client), the first close order on the leg is the first-sent close's: its
 *   leg's close is over, the later ones go on and will find the leg as it left it (its fills, now
 *   of an order the kernel knows, move their size; they are refused when it left the leg flat, or
 *   make a smaller order when it grew). Not when that first close's outcome is unknown: its
 *   request may never have run, or run late, so the order may be a later close's, and goes to
 *   neither (below);
 * - otherwise (`unknown`: a live venue, where the spec does not say when the venue makes a
 *   close's order, so a close sent after another's answer may still be made first), the order
 *   cannot be told apart: it belongs to neither, and every close of that leg ends (the safe rule:
 *   a strategy is never told of an order that may be another's).
 *
 * An order given to no strategy although a close may have made it is kept for the run's warnings
 * ({@link unattributed}): one two strategies' closes may have made, and one on a leg whose close
 * a position report ended before the order came (the venue reported the position first).
 */
export class InFlightCloses {
  private legs: ClosingLeg[] = [];
  /**
   * Per leg (`sym|positionSide`), the closes that ended before their order was seen: at a report or
   * an unknown outcome, or at another close's order on the leg it could not be told from.
   */
  private readonly endedUnseen = new Map<string, EndedCloses>();
  private readonly unattributedOrders = new Map<string, UnattributedCloseOrder>();
  /** Whether the venue's latest liquidation node was not its last (`FINISHED`): a liquidation is under way. */
  private liquidating = false;
  /** The orders (by orderId) the venue made during a liquidation: its own, never a close's. */
  private readonly liquidationOrders = new Set<string>();

  /**
   * @param legQty - the kernel's position legs, read when a close is sent
   * @param legMayGrow - whether an order could open a leg, asked of the flat legs when a close is sent
   * @param ordering - whether the venue makes the close orders of a leg in the order the closes were
   *   sent (see {@link CloseOrdering}); default `unknown`
   */
  constructor(
    private readonly legQty: LegQty,
    private readonly legMayGrow: LegMayGrow = () => false,
    private readonly ordering: CloseOrdering = 'unknown',
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
   * A liquidation node: from the first to the last (`FINISHED`), the venue has taken the positions
   * over, and every order it makes is the liquidation's (Keel's simulated venue runs a liquidation
   * at once, between commands), which {@link claim} gives to no close: a close in flight on the leg
   * will find it as the liquidation left it, and make its own order or be refused.
   * @param nodeType - the node reached
   */
  liquidationNode(nodeType: LiquidationNodeType): void {
    this.liquidating = nodeType !== 'FINISHED';
  }

  /**
   * The venue refused a close: it makes no order.
   * @param ref - the close's reference
   */
  refused(ref: string): void {
    this.drop((leg) => leg.ref === ref);
    for (const [key, ended] of this.endedUnseen)
      this.setEnded(
        key,
        ended.closes.filter((close) => close.ref !== ref),
        ended.orders,
      );
  }

  /**
   * The venue's answer to a close never came and the look-ups failed: it may have closed. The next
   * report of its open legs says (see {@link positionReported}); on a leg the kernel holds flat it is
   * over now: no report of it need come, and whether an opening fill reached it first is not known.
   * @param ref - the close's reference
   */
  outcomeUnknown(ref: string): void {
    for (const leg of this.legs)
      if (leg.ref === ref && leg.signed.isZero()) this.endedWithOrderUnseen([leg], 0);
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
    for (const leg of this.legs) {
      if (!onLeg(leg, sym, positionSide) || !over(leg)) continue;
      // Over at a report that does not show it did nothing: its order may still come.
      if (leg.unknown || !reported.eq(leg.signed)) this.endedWithOrderUnseen([leg], 0);
    }
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
   * @param firstSeen - whether this is the kernel's first word of the order (only then is one
   *   that comes after its close ended kept for the warnings)
   * @returns nothing for an order a liquidation made ({@link liquidationNode}); else the owner and
   *   the close's reference: the first-sent close's where the venue makes
   *   close orders in send order (its outcome known), else the earliest when one strategy sent
   *   every close of the leg in flight; ambiguous when strategies' closes of the leg are in flight
   *   at once and the venue's order cannot tell them apart; undefined when the order is no
   *   close's (kept for the warnings when a report ended the leg's close before it came)
   */
  claim(order: Order, firstSeen = true): CloseOrderOwner | undefined {
    if (this.liquidating) this.liquidationOrders.add(order.orderId);
    if (this.liquidationOrders.has(order.orderId) || !onlyReducesPosition(order)) return undefined;
    const { sym, positionSide } = order;
    const closing = this.legs.filter((leg) => onLeg(leg, sym, positionSide));
    const first = closing[0];
    if (first === undefined) {
      if (firstSeen) this.endedBeforeItsOrder(order);
      return undefined;
    }
    // A close a report ended before its order came may have made this order too.
    const ended = this.endedUnseen.get(legKey(sym, positionSide))?.closes ?? [];
    if (this.ordering === 'sendOrder' && !first.unknown && ended.length === 0) {
      this.drop((leg) => leg.ref === first.ref && (onLeg(leg, sym, positionSide) || leg.signed.isZero()));
      return { kind: 'owner', owner: first.owner, ref: first.ref };
    }
    const owners = [...new Set([...ended, ...closing].map((close) => close.owner))];
    const refs = new Set(closing.map((leg) => leg.ref));
    this.drop((leg) => onLeg(leg, sym, positionSide) || (refs.has(leg.ref) && leg.signed.isZero()));
    // This order is one of theirs; the others may still make one.
    this.endedWithOrderUnseen(closing, 1);
    if (owners.length === 1) return { kind: 'owner', owner: first.owner, ref: first.ref };
    this.unattributedOrder(order, owners, 'ambiguous');
    return { kind: 'ambiguous', owners };
  }

  /**
   * The orders given to no strategy though a close may have made them, for the run's warnings.
   * @returns one entry per leg, strategies and reason, in the order first met
   */
  unattributed(): readonly UnattributedCloseOrder[] {
    return [...this.unattributedOrders.values()];
  }

  /** An order no close in flight claims, on a leg whose close a report ended before its order came. */
  private endedBeforeItsOrder(order: Order): void {
    const key = legKey(order.sym, order.positionSide);
    const ended = this.endedUnseen.get(key);
    if (ended === undefined) return;
    this.setEnded(key, ended.closes, ended.orders + 1);
    this.unattributedOrder(order, [...new Set(ended.closes.map((close) => close.owner))], 'endedFirst');
  }

  /**
   * Closes of one leg ended before their order was seen (with `orders` of theirs just come): an
   * order that comes next on the leg may be one of theirs.
   */
  private endedWithOrderUnseen(legs: readonly ClosingLeg[], orders: number): void {
    const first = legs[0];
    if (first === undefined) return;
    const key = legKey(first.sym, first.positionSide);
    const ended = this.endedUnseen.get(key);
    const closes = [...(ended?.closes ?? [])];
    for (const leg of legs)
      if (!closes.some((close) => close.ref === leg.ref)) closes.push({ ref: leg.ref, owner: leg.owner });
    this.setEnded(key, closes, (ended?.orders ?? 0) + orders);
  }

  /** Keeps a leg's ended closes while some of them may still make an order. */
  private setEnded(key: string, closes: readonly EndedClose[], orders: number): void {
    if (closes.length > orders) this.endedUnseen.set(key, { closes, orders });
    else this.endedUnseen.delete(key);
  }

  private unattributedOrder(
    order: Order,
    owners: readonly string[],
    reason: UnattributedCloseOrder['reason'],
  ): void {
    const key = `${legKey(order.sym, order.positionSide)}|${reason}|${owners.join(',')}`;
    const seen = this.unattributedOrders.get(key);
    this.unattributedOrders.set(
      key,
      seen === undefined
        ? {
            sym: order.sym,
            positionSide: order.positionSide,
            owners,
            reason,
            firstOrder: order.clientOrderId === '' ? order.orderId : order.clientOrderId,
            count: 1,
          }
        : { ...seen, count: seen.count + 1 },
    );
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

  /** @returns whether no close is in flight */
  get idle(): boolean {
    return this.legs.length === 0;
  }

  /**
   * @returns whether no close is in flight, no leg waits for the order of a close a report
   *   ended and no liquidation is under way (its orders are noted): checked first on every User
   *   Data event
   */
  get quiet(): boolean {
    return this.legs.length === 0 && this.endedUnseen.size === 0 && !this.liquidating;
  }

  private drop(over: (leg: ClosingLeg) => boolean): void {
    this.legs = this.legs.filter((leg) => !over(leg));
  }
}

function legKey(sym: string, positionSide: PositionSide): string {
  return `${sym}|${positionSide}`;
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
