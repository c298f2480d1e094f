import { formatDecimal, type Order } from '../../core/model/index.ts';
import { type OrderWire, orderToWire } from '../../core/venue/index.ts';
import type { PortfolioBook } from './portfolio-book.ts';
import { derivedPrice } from './wire-views.ts';

/**
 * An order as the paper venue writes it on every channel and endpoint: Keel's wire mapping plus
 * the fields the public venue docs list for orders that the model does not hold (per public venue
 * docs): exchangeType and businessType of a crypto sym (an equity has neither: the equities
 * flavour names none), the sym's leverage, and lastExecutedQty / lastExecutedPrice of the order's
 * latest fill ("0" before any). actionMsg, amendType and cancelType are always written, empty when
 * nothing was said, amended or cancelled (Keel's choice: the spec lists them on order details and
 * the Orders channel without saying when they are left out). executedAvgPrice is written as the
 * derived prices are ({@link derivedPrice}), not as the sim's exact quotient.
 * @param book - the order's portfolio (its fills and the venue's leverage)
 * @param order - the model order
 * @returns the wire order
 */
export function paperOrderToWire(book: PortfolioBook, order: Order): OrderWire {
  const spec = book.instruments.get(order.sym);
  const last = book.lastExecutions.get(order.orderId);
  const wire = orderToWire(order);
  return {
    ...wire,
    ...(spec?.id.kind === 'crypto'
      ? { exchangeType: spec.id.exchangeType, businessType: spec.id.businessType }
      : {}),
    executedAvgPrice: formatDecimal(derivedPrice(order.executedAvgPrice)),
    leverage: formatDecimal(book.sim.leverageOf(order.sym)),
    lastExecutedQty: last === undefined ? '0' : formatDecimal(last.quantity),
    lastExecutedPrice: last === undefined ? '0' : formatDecimal(last.price),
    actionMsg: wire.actionMsg ?? '',
    amendType: wire.amendType ?? '',
    cancelType: wire.cancelType ?? '',
  };
}
