import type { LocalTradingState } from '../../execution/index.ts';
import { type Order, type Position, positionKey, type UserEvent } from '../../model/index.ts';
import { openOrderKey, orderNameOf } from './local-trading-view.ts';

/** The most orders or positions a list of the report names; the rest are counted. */
const NAMED_AT_MOST = 20;

/** What a reconciliation corrected, for its log line. */
export interface ReconciliationReport {
  /** The number of corrections by event kind (e.g. `{ order: 1, execution: 2, position: 1 }`). */
  readonly corrected: Record<string, number>;
  /**
   * The orders Keel did not hold open that the venue lists, adopted: `clientOrderId STATE` (the
   * orderId for one placed without a reference).
   */
  readonly adopted?: readonly string[];
  /**
   * The orders Keel held open whose state the reconciliation changed: `clientOrderId OPEN -> FILLED`,
   * with the reason of one Keel ended itself (the venue neither lists nor knows it).
   */
  readonly orders?: readonly string[];
  /** The positions whose quantity changed: `sym side before -> after`. */
  readonly positions?: readonly string[];
  /** The orders and algo orders still looked up, the venue having said it does not know them. */
  readonly lookingUp?: readonly string[];
}

/**
 * What a reconciliation corrected, named: the counts by kind, the orders adopted and those whose
 * state changed, the positions before and after, and what is still looked up. A list left empty
 * is left out (none at all: Keel's view already was the venue's).
 * @param corrections - the events the reconciliation emitted
 * @param before - what Keel held when it began
 * @param lookingUp - the references of the orders and algo orders still looked up
 * @returns the report, for a log line
 */
export function reconciliationReport(
  corrections: readonly UserEvent[],
  before: LocalTradingState,
  lookingUp: readonly string[],
): ReconciliationReport {
  const corrected: Record<string, number> = {};
  for (const event of corrections) corrected[event.kind] = (corrected[event.kind] ?? 0) + 1;
  const held = new Map(before.openOrders.map((order) => [openOrderKey(order), order]));
  const positionsBefore = new Map(
    before.positions.map((position) => [positionKey(position.sym, position.positionSide), position]),
  );
  const adopted: string[] = [];
  const orders: string[] = [];
  const positions: string[] = [];
  for (const event of corrections) {
    if (event.kind === 'order') {
      const was = held.get(openOrderKey(event.order));
      if (was === undefined) adopted.push(`${orderNameOf(event.order)} ${event.order.orderState}`);
      else if (was.orderState !== event.order.orderState || !was.executedQty.eq(event.order.executedQty))
        orders.push(orderChange(was, event.order));
    } else if (event.kind === 'position') {
      const was = positionsBefore.get(positionKey(event.position.sym, event.position.positionSide));
      if (was === undefined || !was.positionQty.eq(event.position.positionQty))
        positions.push(positionChange(was, event.position));
    }
  }
  const report: { -readonly [K in keyof ReconciliationReport]: ReconciliationReport[K] } = { corrected };
  if (adopted.length > 0) report.adopted = named(adopted);
  if (orders.length > 0) report.orders = named(orders);
  if (positions.length > 0) report.positions = named(positions);
  if (lookingUp.length > 0) report.lookingUp = named(lookingUp);
  return report;
}

function orderChange(was: Order, now: Order): string {
  const executed = was.executedQty.eq(now.executedQty) ? '' : ` (executed ${now.executedQty.toFixed()})`;
  const reason = now.synthesized === true && now.reason !== undefined ? `: ${now.reason}` : '';
  return `${orderNameOf(now)} ${was.orderState} -> ${now.orderState}${executed}${reason}`;
}

function positionChange(was: Position | undefined, now: Position): string {
  const before = was === undefined ? 'none' : was.positionQty.toFixed();
  return `${now.sym} ${now.positionSide} ${before} -> ${now.positionQty.toFixed()}`;
}

/** The items, at most {@link NAMED_AT_MOST} of them named and the rest counted. */
function named(items: readonly string[]): readonly string[] {
  return items.length > NAMED_AT_MOST
    ? [...items.slice(0, NAMED_AT_MOST), `and ${items.length - NAMED_AT_MOST} more`]
    : items;
}
