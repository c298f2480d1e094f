import { describe, expect, it } from 'vitest';
import { UnreportedFills } from '../../../core/kernel/unreported-fills.ts';
import type { Position } from '../../../core/model/index.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { aPositionUpdate } from '../../kit/kernel-events.ts';

const KEY = 'BTC|NONE';

/** A NET position report of `qty` at `ts` that counts how often its quantity is read. */
function aCountedReport(ts: number, qty: string): { position: Position; reads: () => number } {
  const report = aPositionUpdate(ts, qty).position;
  let reads = 0;
  const position = Object.defineProperty({ ...report }, 'positionQty', {
    get: () => {
      reads++;
      return report.positionQty;
    },
    enumerable: true,
  });
  return { position, reads: () => reads };
}

function aBuy(ts: number, quantity: string) {
  return anExecution({ side: 'BUY', quantity, price: '100', timestamp: ts });
}

describe('unreported fills of a position leg', () => {
  it('reads no report until a fill stamped no later than the latest one arrives after it', () => {
    const fills = new UnreportedFills();
    fills.add(KEY, aBuy(5, '1'));
    const first = aCountedReport(5, '1');
    expect(fills.reported(KEY, first.position, undefined)).toBe(true);
    expect(fills.qty(KEY).toFixed()).toBe('0');
    const second = aCountedReport(6, '3');
    expect(fills.reported(KEY, second.position, first.position)).toBe(true);
    expect(first.reads() + second.reads()).toBe(0);
    // The update moved the leg by 2 beyond the fills booked by then: two fills stamped at it are in it.
    fills.add(KEY, aBuy(6, '1'));
    fills.add(KEY, aBuy(6, '1'));
    expect(fills.qty(KEY).toFixed()).toBe('0');
    expect(second.reads()).toBeGreaterThan(0);
    // A third counts on top: the venue sent it after the update.
    fills.add(KEY, aBuy(6, '1'));
    expect(fills.qty(KEY).toFixed()).toBe('1');
  });

  it('keeps the fills booked after an update, and counts those before it as in it', () => {
    const fills = new UnreportedFills();
    fills.add(KEY, aBuy(4, '1'));
    fills.add(KEY, aBuy(7, '2'));
    fills.add(KEY, aBuy(5, '4'));
    // The report at 5 holds the fills of 4 and 5 (5 in all): nothing is ahead of them.
    expect(fills.reported(KEY, aPositionUpdate(5, '5').position, undefined)).toBe(true);
    expect(fills.qty(KEY).toFixed()).toBe('2');
    fills.add(KEY, aBuy(5, '1'));
    expect(fills.qty(KEY).toFixed()).toBe('3');
    // An older report changes nothing.
    expect(fills.reported(KEY, aPositionUpdate(3, '9').position, undefined)).toBe(false);
    expect(fills.qty(KEY).toFixed()).toBe('3');
  });
});
