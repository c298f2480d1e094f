import type { Dec, Execution, Position, PositionSide } from '../../core/model/index.ts';
import { isAboveZero, positionKey, ZERO } from '../../core/model/index.ts';

/**
 * A quantity that left a spot holding without a fill (loan interest paid in the coin), placed
 * among the session's fills: what `RoundTripBook.spend` takes out of the open lots.
 */
export interface HoldingSpend {
  readonly sym: string;
  readonly positionSide: PositionSide;
  /** The quantity that left (> 0). */
  readonly qty: Dec;
  /** The holding's average price once it left: a short grows at it. */
  readonly price: Dec;
  /** When the venue reported the holding without it. */
  readonly ts: number;
  /** How many of the session's fills (in arrival order) came before it. */
  readonly afterFills: number;
}

/** The newest position report of a holding not yet compared with the fills. */
interface PendingReport {
  readonly qty: Dec;
  readonly price: Dec;
  readonly ts: number;
  /** The venue's time of the report's last change: fills up to it are counted in it. */
  readonly updateAt: number;
  /** Where a spend it shows goes among the fills. */
  afterFills: number;
}

interface HoldingState {
  readonly sym: string;
  readonly positionSide: PositionSide;
  /** The quantity the holding had at the start plus what the session's fills and spends explain. */
  explained: Dec;
  pending: PendingReport | undefined;
  /**
   * Whether the holding was open when the session began: its lots are older than the session's
   * trade list, so what leaves it is not taken out of the session's lots (they would gain a lot
   * the list never had).
   */
  carriedIn: boolean;
}

/**
 * Finds, from what a paper or live session receives, the coin that left a spot holding without a
 * fill: a position report whose quantity is below what the holding's start and the session's fills
 * explain. The venue cannot tell a session about such a spend (a backtest's simulated venue calls
 * `onHoldingSpent`), but its Positions channel reports the holding after it. A report is compared
 * once the fills it counts have arrived: a fill stamped at or before the report's `updateAt` that
 * arrives after it (the missed executions a reconciliation catches up on after its snapshot) was
 * already in it; a newer report takes its place (it counts as much and more), and a newer fill or
 * the session's end settles it. So a spend is placed after every fill the venue made before it
 * and before every fill it made after, as the backtest books it. A report above what the fills
 * explain (a fill never received) is left alone: only coin that left is taken out of the trade
 * list. Reports before the session traded (the reconciliation at startup) are where each holding
 * starts; a holding open then is left alone (its spends come out of lots the session's trade list
 * does not have).
 */
export class HoldingSpends {
  private readonly holdings = new Map<string, HoldingState>();
  private readonly spends: HoldingSpend[] = [];
  private trading = false;

  /** @param coinSyms - the syms whose holdings may pay interest (crypto SPOT and MARGIN: `settlesInCoins`) */
  constructor(private readonly coinSyms: ReadonlySet<string>) {}

  /** From now on a position report that the fills do not explain is a spend, not where a holding starts. */
  startTrading(): void {
    this.trading = true;
  }

  /**
   * Takes a fill the session recorded.
   * @param fill - the execution
   * @param fills - the session's fills so far, this one included
   */
  fill(fill: Execution, fills: number): void {
    if (!this.coinSyms.has(fill.sym)) return;
    const holding = this.holdingOf(fill.sym, fill.positionSide);
    const pending = holding.pending;
    if (pending !== undefined && fill.timestamp > pending.updateAt) this.settle(holding);
    const signed = fill.side === 'BUY' ? fill.quantity : fill.quantity.neg();
    holding.explained = holding.explained.plus(signed);
    if (holding.pending !== undefined) holding.pending.afterFills = fills;
  }

  /**
   * Takes a position report: before trading it is where the holding starts, afterwards it waits
   * for the fills it may count (see the class).
   * @param position - the holding as the venue reported it
   * @param ts - the report's venue time
   * @param fills - the session's fills so far
   */
  position(position: Position, ts: number, fills: number): void {
    if (!this.coinSyms.has(position.sym)) return;
    const holding = this.holdingOf(position.sym, position.positionSide);
    if (!this.trading) {
      holding.explained = position.positionQty;
      holding.carriedIn = !position.positionQty.isZero();
      return;
    }
    if (holding.carriedIn) return;
    holding.pending = {
      qty: position.positionQty,
      price: position.avgPrice,
      ts,
      updateAt: position.updateAt,
      afterFills: fills,
    };
  }

  /**
   * Settles the reports still waiting (the session has ended: no fill is still to come).
   * @returns every spend found, in the order the fills place them
   */
  finish(): readonly HoldingSpend[] {
    for (const holding of this.holdings.values()) this.settle(holding);
    return [...this.spends].sort((a, b) => a.afterFills - b.afterFills || a.ts - b.ts);
  }

  private settle(holding: HoldingState): void {
    const pending = holding.pending;
    holding.pending = undefined;
    if (pending === undefined) return;
    const gap = holding.explained.minus(pending.qty);
    if (!isAboveZero(gap)) return;
    holding.explained = pending.qty;
    this.spends.push({
      sym: holding.sym,
      positionSide: holding.positionSide,
      qty: gap,
      price: pending.price,
      ts: pending.ts,
      afterFills: pending.afterFills,
    });
  }

  private holdingOf(sym: string, positionSide: PositionSide): HoldingState {
    const key = positionKey(sym, positionSide);
    let holding = this.holdings.get(key);
    if (holding === undefined) {
      holding = { sym, positionSide, explained: ZERO, pending: undefined, carriedIn: false };
      this.holdings.set(key, holding);
    }
    return holding;
  }
}
