import type { Dec, LiquidationEventRecord, UserEvent } from '../../../core/model/index.ts';
import type { LiquidationFillRecord, LiquidationRecord } from './cash-flow-record.ts';

interface OpenLiquidation {
  readonly liquidationEventId: string;
  eventType: string;
  readonly ts: number;
  equityBefore?: Dec;
  maintenanceMargin?: Dec;
  equityAfter?: Dec;
  readonly fills: Map<string, LiquidationFillRecord>;
}

/**
 * Gathers the account's liquidations from the venue's User Data (LiquidationEvent and
 * LiquidationPosition channels), the same way for a backtest's simulated venue and a paper or
 * live venue: the TRIGGERED node gives the time and the equity below maintenance margin, each
 * archived liquidation order a fill, the last node the equity left after it. A liquidation order
 * reported on both the portfolio's and the main account's channel counts once.
 */
export class LiquidationJournal {
  private readonly byId = new Map<string, OpenLiquidation>();

  /**
   * Takes in one User Data event; every kind but the two liquidation channels is ignored.
   * @param event - the event
   */
  observe(event: UserEvent): void {
    if (event.kind === 'liquidationEvent') this.node(event.record);
    else if (event.kind === 'liquidationPosition') {
      const { record } = event;
      const open = this.opened(record.liquidationEventId, record.timestamp);
      open.fills.set(record.orderId, {
        orderId: record.orderId,
        sym: record.sym,
        side: record.side,
        quantity: record.quantity,
        price: record.price,
        fee: record.liquidationFee,
      });
    }
  }

  /**
   * @returns the liquidations seen so far, in the order they were triggered
   */
  records(): LiquidationRecord[] {
    return [...this.byId.values()].map((open) => ({
      liquidationEventId: open.liquidationEventId,
      eventType: open.eventType,
      ts: open.ts,
      ...(open.equityBefore === undefined ? {} : { equityBefore: open.equityBefore }),
      ...(open.maintenanceMargin === undefined ? {} : { maintenanceMargin: open.maintenanceMargin }),
      ...(open.equityAfter === undefined ? {} : { equityAfter: open.equityAfter }),
      fills: [...open.fills.values()],
    }));
  }

  private node(record: LiquidationEventRecord): void {
    const open = this.opened(record.liquidationEventId, record.timestamp);
    open.eventType = record.eventType;
    if (open.equityBefore === undefined) {
      open.equityBefore = record.equity;
      open.maintenanceMargin = record.maintainMargin;
    }
    open.equityAfter = record.equity;
  }

  /** The liquidation of an id, opened at its first node or order (a venue may send orders only). */
  private opened(liquidationEventId: string, ts: number): OpenLiquidation {
    const known = this.byId.get(liquidationEventId);
    if (known !== undefined) return known;
    const open: OpenLiquidation = { liquidationEventId, eventType: 'UNKNOWN', ts, fills: new Map() };
    this.byId.set(liquidationEventId, open);
    return open;
  }
}
