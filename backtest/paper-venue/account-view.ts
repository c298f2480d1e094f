import { formatDecimal, type PositionMode } from '../../core/model/index.ts';
import {
  type AssetWire,
  type ExecutionWire,
  type OrderWire,
  orderToWire,
  type PositionWire,
} from '../../core/venue/index.ts';
import type { PortfolioBook } from './portfolio-book.ts';
import { assetToWire, decimalsAsText, executionToWire, positionToWire } from './wire-views.ts';

/**
 * One portfolio as the snapshot written at close holds it (`view`): what the venue acknowledged
 * to its clients, in the wire's words, with the average prices (avgPrice, executedAvgPrice)
 * exact as the sim holds them rather than rounded as the wire writes them. Written for people,
 * and read back by the next start, which checks that replaying the journal rebuilds it (see
 * `firstAccountDifference`).
 */
export interface PortfolioView {
  readonly portfolioId: string;
  readonly main: boolean;
  readonly positionMode: PositionMode;
  readonly orders: readonly OrderWire[];
  readonly executions: readonly ExecutionWire[];
  readonly positions: readonly PositionWire[];
  readonly loans: readonly unknown[];
  /** The balances (absent in a view written before Keel 0.2.0). */
  readonly assets: readonly AssetWire[];
  /**
   * The portfolio's starting balances by coin, as configured when the view was written (absent
   * before Keel 0.2.0): what the journal moved a balance by is its balance less this.
   */
  readonly startingBalances: Readonly<Record<string, string>>;
}

/**
 * Every portfolio as it stands: the orders and executions it keeps, its positions, loans and
 * balances, and the starting balances it was configured with.
 * @param books - the venue's portfolios
 * @returns one view per portfolio, in the venue's order
 */
export async function accountViewOf(books: ReadonlyMap<string, PortfolioBook>): Promise<PortfolioView[]> {
  const views: PortfolioView[] = [];
  for (const book of books.values()) {
    const { assets } = await book.sim.snapshot();
    views.push({
      portfolioId: book.portfolioId,
      main: book.isMain,
      positionMode: book.positionMode,
      orders: [...book.orders.values()].map(orderToWire),
      executions: book.executions.map(executionToWire),
      // The exact avgPrice, which the wire rounds: the replay check compares it, and a view
      // written before the wire rounded holds it exact.
      positions: [...book.positions.values()].map((p) => ({
        ...positionToWire(p),
        avgPrice: formatDecimal(p.avgPrice),
      })),
      loans: [...book.loans.values()].map(decimalsAsText),
      assets: assets.map(assetToWire),
      startingBalances: decimalsAsText(book.options.startingBalances) as Record<string, string>,
    });
  }
  return views;
}
