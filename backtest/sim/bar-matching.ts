import type { BarEvent } from '../../core/model/index.ts';
import { decimalOf } from '../../core/model/index.ts';
import { executeFill } from './fills.ts';
import { fillWaiting, marketOf } from './matching.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';

/** Checks the triggers of a sym over one price segment of a bar (wired by the composition root). */
export type SegmentTriggers = (state: SimState, sym: string, from: number, to: number) => void;

/**
 * The assumed path of prices inside a bar: open, then the extreme ADVERSE to the account's net
 * position on the sym (low first when long, high first when short), then the other extreme, then
 * close. So when a stop and a take-profit could both trigger within one bar, the stop is assumed
 * first: the conservative order. When flat, the extreme nearer the open comes first (low on a tie).
 * @param bar - a closed bar
 * @param netQty - the account's net position on the sym (sign only)
 * @returns four prices
 */
export function barPath(bar: BarEvent, netQty: number): readonly [number, number, number, number] {
  let lowFirst: boolean;
  if (netQty > 0) lowFirst = true;
  else if (netQty < 0) lowFirst = false;
  else lowFirst = bar.open - bar.low <= bar.high - bar.open;
  return lowFirst ? [bar.open, bar.low, bar.high, bar.close] : [bar.open, bar.high, bar.low, bar.close];
}

function netQtyOf(state: SimState, sym: string): number {
  let net = 0;
  for (const position of state.positions.values()) if (position.sym === sym) net += position.qtyN;
  return net;
}

/**
 * Replays a closed bar along {@link barPath}: parked market orders fill at the open; then, segment
 * by segment, triggers fire (their orders fill at the trigger price, or at the segment start when
 * the price gapped past it) and resting limits inside the segment's range fill at their limit price
 * (at the open when the bar opened through them).
 * @param state - the venue
 * @param bar - the bar event
 * @param triggers - checks the sym's triggers over a segment
 */
export function matchBar(state: SimState, bar: BarEvent, triggers: SegmentTriggers): void {
  if (!bar.closed) return;
  const market = marketOf(state, bar.sym);
  const path = barPath(bar, netQtyOf(state, bar.sym));
  state.inBar = true;
  try {
    market.last = bar.open;
    fillWaiting(state, bar.sym);
    let from = bar.open;
    for (const to of path) {
      market.last = from;
      triggers(state, bar.sym, from, to);
      fillRestingInSegment(state, bar.sym, from, to);
      from = to;
    }
  } finally {
    state.inBar = false;
    market.last = bar.close;
  }
}

function fillRestingInSegment(state: SimState, sym: string, from: number, to: number): void {
  const book = state.books.get(sym);
  if (book === undefined) return;
  const low = Math.min(from, to);
  const high = Math.max(from, to);
  while (book.buys.length > 0) {
    const order = book.buys[0] as SimOrder;
    if (order.priceN < low) break;
    const price = from <= order.priceN ? decimalOf(from) : order.price;
    executeFill(state, order, order.qty.minus(order.filled), price, 'MAKER');
    if (book.buys[0] === order) break;
  }
  while (book.sells.length > 0) {
    const order = book.sells[0] as SimOrder;
    if (order.priceN > high) break;
    const price = from >= order.priceN ? decimalOf(from) : order.price;
    executeFill(state, order, order.qty.minus(order.filled), price, 'MAKER');
    if (book.sells[0] === order) break;
  }
}
