import type { LiquidationPositionRecord, UserEvent } from '../../model/index.ts';

/**
 * Tells the account's own User Data from that of the other portfolios under it. The
 * LiquidationPositionByUser channel carries the same payload as LiquidationPosition, "delivered on
 * the main account's connection so one connection covers every sub-portfolio under it" (the spec):
 * on a main account's connection a sub-portfolio's liquidation orders arrive too, and would pass
 * for this account's. The account's portfolio is the one its account reports name (the first
 * reconciliation reads it); until one has, and for a record naming no portfolio, every liquidation
 * order is taken as the account's.
 */
export class OwnPortfolio {
  private id: string | undefined;

  /**
   * Notes the portfolio an account report names.
   * @param event - a User Data event on its way to the session
   */
  observe(event: UserEvent): void {
    if (event.kind === 'account' && event.account.portfolioId !== '') this.id = event.account.portfolioId;
  }

  /**
   * Whether a liquidation order is the account's own.
   * @param record - from the LiquidationPosition or LiquidationPositionByUser channel
   * @returns false when it names another portfolio than the account's
   */
  owns(record: LiquidationPositionRecord): boolean {
    return this.id === undefined || record.portfolioId === '' || record.portfolioId === this.id;
  }
}
