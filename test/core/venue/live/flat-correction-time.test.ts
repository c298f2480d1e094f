import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { planReconciliation } from '../../../../core/execution/index.ts';
import { defineStrategy } from '../../../../core/kernel/index.ts';
import type { Position, UserEvent } from '../../../../core/model/index.ts';
import { LocalTradingView } from '../../../../core/venue/live/local-trading-view.ts';
import { NewestPositionReports } from '../../../../core/venue/live/newest-position-reports.ts';
import { anExecution } from '../../../kit/execution-builders.ts';
import { aRecordingKernelRig } from '../../../kit/kernel-builders.ts';
import { aPositionUpdate, aQuote, BTC } from '../../../kit/kernel-events.ts';

// Venue time (a paper venue replaying an earlier day, or a venue behind the machine's clock) runs
// 1_000 .. 3_000; Keel's clock reads 5_000 when it takes the reconciliation's snapshot.
const SNAPSHOT_AT = 5_000;

/** The flat correction reconciliation makes for a leg Keel holds open and the venue no longer lists. */
function flatCorrection(view: LocalTradingView): Position {
  const plan = planReconciliation(view.state(), {
    ts: SNAPSHOT_AT,
    openOrders: [],
    openAlgoOrders: [],
    positions: [],
    assets: [],
  });
  const flat = plan.events.find((e) => e.kind === 'position');
  if (flat?.kind !== 'position') throw new Error('no flat correction');
  return flat.position;
}

/** The venue's time as the view reads it: a test sets it before each event it folds. */
let venueTime = 0;

describe("a flat correction stamped at the venue's time, not Keel's", () => {
  it('is stamped with the newest venue time seen, so the venue re-opening the leg later is passed on', () => {
    const view = new LocalTradingView(() => venueTime);
    const open = { ...aPositionUpdate(1_000, '1'), recvTs: SNAPSHOT_AT - 100 };
    venueTime = SNAPSHOT_AT - 100;
    view.observe(open);
    const fill: UserEvent = {
      kind: 'execution',
      ts: 1_500,
      recvTs: SNAPSHOT_AT - 50,
      execution: anExecution({
        transactionId: 't-1',
        timestamp: 1_500,
        side: 'BUY',
        quantity: '0.5',
        price: '100',
      }),
    };
    venueTime = SNAPSHOT_AT - 50;
    view.observe(fill);
    const flat = flatCorrection(view);
    expect(flat.positionQty.isZero()).toBe(true);
    expect(flat.updateAt).toBe(1_500);
    const reports = new NewestPositionReports();
    expect(reports.admit(open.position)).toBe(true);
    expect(reports.admit(flat)).toBe(true);
    expect(reports.admit(aPositionUpdate(3_000, '2').position)).toBe(true);
  });

  it('does not let a venue time stamped ahead of its receipt move the stamp past the present', () => {
    const view = new LocalTradingView(() => venueTime);
    venueTime = 1_200;
    view.observe({ ...aPositionUpdate(1_000, '1'), recvTs: 1_200 });
    venueTime = 1_300;
    view.observe({
      kind: 'execution',
      ts: 99_000,
      recvTs: 1_300,
      execution: anExecution({
        transactionId: 't-ahead',
        timestamp: 99_000,
        side: 'BUY',
        quantity: '0.5',
        price: '100',
      }),
    });
    expect(flatCorrection(view).updateAt).toBe(1_300);
  });

  it("keeps the kernel's netQty on the venue's later report of the leg after the flat correction", () => {
    const seen: string[] = [];
    const watcher = defineStrategy({
      name: 'watch',
      params: z.object({}),
      onQuote: (ctx) => void seen.push(String(ctx.netQty(BTC))),
    });
    const view = new LocalTradingView(() => venueTime);
    const open = { ...aPositionUpdate(1_000, '1'), recvTs: 1_100 };
    venueTime = 1_100;
    view.observe(open);
    const rig = aRecordingKernelRig([{ id: 's', strategy: watcher }]);
    rig.market.next(aQuote(900, 100));
    rig.port.emit(open);
    rig.port.emit({ kind: 'position', ts: SNAPSHOT_AT, recvTs: SNAPSHOT_AT, position: flatCorrection(view) });
    rig.port.emit(aPositionUpdate(3_000, '2'));
    rig.market.next(aQuote(5_001, 100));
    expect(seen.at(-1)).toBe('2');
  });
});
