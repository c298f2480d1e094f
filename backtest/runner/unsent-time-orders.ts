import { DateTime } from 'luxon';
import { type Order, parseTimeToSend } from '../../core/model/index.ts';

/**
 * Warnings for TIME orders still held when the recordings ended because their `timeToSend` came
 * after the last event: they never reached the market. `timeToSend` is New York wall-clock time,
 * so a time meant as UTC lands hours later than intended, often past the data; saying when it was
 * read as makes that visible.
 * @param openOrders - the venue's open orders after the last event
 * @param end - receive time of the last event, epoch ms
 * @returns one sentence per such order, in the venue's order
 */
export function unsentTimeOrderWarnings(openOrders: readonly Order[], end: number): string[] {
  const utc = (ts: number): string =>
    DateTime.fromMillis(ts, { zone: 'utc' }).toFormat("yyyy-MM-dd HH:mm:ss 'UTC'");
  return openOrders.flatMap((order) => {
    const text = order.condition?.code === 'TIME' ? order.condition.timeToSend : undefined;
    if (text === undefined) return [];
    const due = parseTimeToSend(text);
    if (!(due > end)) return [];
    return [
      `TIME order ${order.clientOrderId} was never sent: its timeToSend ${text} (New York time) is ${utc(due)}, after the last event at ${utc(end)}`,
    ];
  });
}
