import type { AlgoOrderStep } from './algo-order-record.ts';
import type { BacktestResult } from './backtest-result.ts';
import { csvLines, isoTime } from './result-csv.ts';

function* mapped<T, U>(items: Iterable<T>, f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}

/**
 * An algo order's steps in one cell: each state with its time, and its trigger price where it was
 * set or changed (a replace), e.g. `NEW 2025-03-03T00:24:00.015Z @90181.2; TRIGGERED 2025-03-03T01:07:00.000Z`.
 * @param steps - the algo order's steps
 * @returns the text
 */
export function algoLifecycleText(steps: readonly AlgoOrderStep[]): string {
  return steps
    .map((step, i) => {
      const previous = steps[i - 1];
      const changed = previous === undefined || !previous.triggerPrice.eq(step.triggerPrice);
      return `${step.state} ${isoTime(step.ts)}${changed ? ` @${step.triggerPrice.toFixed()}` : ''}`;
    })
    .join('; ');
}

/**
 * The algo orders as CSV, one row per algo order in its last state (empty but for the header
 * when there were none, or the result predates them): standalone trigger orders (TRIGGER) and
 * take-profit / stop-loss legs (TP_SL, `attachedOrderId` naming their parent order); `orderId`
 * is the order it sent when it fired; `lifecycle` lists its states with their times.
 * @param result - the result
 * @returns the lines of `algo-orders.csv`
 */
export function algoOrdersCsvLines(result: BacktestResult): Generator<string> {
  return csvLines(
    [
      'createTime',
      'updateTime',
      'algoOrderId',
      'clientAlgoOrderId',
      'strategyId',
      'sym',
      'side',
      'algoOrderType',
      'conditionType',
      'triggerType',
      'triggerPrice',
      'price',
      'qty',
      'reduceOnly',
      'positionSide',
      'state',
      'attachedOrderId',
      'orderId',
      'lifecycle',
    ],
    mapped(result.algoOrders ?? [], (a) => [
      isoTime(a.createAt),
      isoTime(a.updateAt),
      a.algoOrderId,
      a.clientAlgoOrderId,
      a.strategyId,
      a.sym,
      a.side,
      a.algoOrderType,
      a.conditionType,
      a.triggerType,
      a.triggerPrice,
      a.price,
      a.qty,
      a.reduceOnly,
      a.positionSide,
      a.state,
      a.attachedOrderId,
      a.orderId,
      algoLifecycleText(a.steps),
    ]),
  );
}

/**
 * The denied intents as CSV, in time order (empty but for the header when none was denied, or
 * the result predates them).
 * @param result - the result
 * @returns the lines of `denials.csv`: time, ts, strategyId, source, check, intentKind, ref, sym, reason
 */
export function denialsCsvLines(result: BacktestResult): Generator<string> {
  return csvLines(
    ['time', 'ts', 'strategyId', 'source', 'check', 'intentKind', 'ref', 'sym', 'reason'],
    mapped(result.denials ?? [], (d) => [
      isoTime(d.ts),
      d.ts,
      d.strategyId,
      d.source,
      d.check,
      d.intentKind,
      d.ref,
      d.sym,
      d.reason,
    ]),
  );
}

/**
 * The trailing stops Keel emulated, as CSV, one row per stop in its last state (empty but for the
 * header when there were none): its offset and trigger source, the stop price it last had, the
 * price that crossed it (TRIGGERED: its MARKET order is in orders.csv under the same
 * clientOrderId), and its status changes with times and stop prices in `lifecycle`.
 * @param result - the result
 * @returns the lines of `trailing-stops.csv`
 */
export function trailingStopsCsvLines(result: BacktestResult): Generator<string> {
  return csvLines(
    [
      'createTime',
      'updateTime',
      'clientOrderId',
      'strategyId',
      'sym',
      'side',
      'qty',
      'reduceOnly',
      'positionSide',
      'offsetType',
      'offset',
      'activationPrice',
      'triggerOn',
      'status',
      'stopPrice',
      'bestPrice',
      'crossPrice',
      'lifecycle',
    ],
    mapped(result.trailingStops ?? [], (t) => [
      isoTime(t.createAt),
      isoTime(t.updateAt),
      t.ref,
      t.strategyId,
      t.sym,
      t.side,
      t.qty,
      t.reduceOnly,
      t.positionSide,
      t.offsetType,
      t.offset,
      t.activationPrice,
      t.triggerOn,
      t.status,
      t.stopPrice,
      t.bestPrice,
      t.crossPrice,
      t.steps
        .map(
          (step) =>
            `${step.status} ${isoTime(step.ts)}${step.stopPrice === undefined ? '' : ` @${step.stopPrice.toFixed()}`}`,
        )
        .join('; '),
    ]),
  );
}
