import { resolve } from 'node:path';
import type { Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AlgoChildGivenUp, type FillGivenUp, Kernel } from '../../../core/kernel/index.ts';
import { liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
const newRig = liveSessionRigs();

afterEach(() => {
  vi.restoreAllMocks();
});

/** The kernel's own report streams, which a session subscribes to before it starts the kernel. */
interface KernelReports {
  readonly algoChildGivenUp$: Subject<AlgoChildGivenUp>;
  readonly fillGivenUp$: Subject<FillGivenUp>;
}

function child(orderId: string): AlgoChildGivenUp {
  return {
    cause: 'timeout',
    clientOrderId: '',
    orderId,
    sym: SESSION_SYM,
    algoOrderId: 'A-by-hand',
    heldAt: 1,
    dropped: 2,
    ts: 2,
    reason: `order ${orderId} names algo order A-by-hand, which the venue did not report within 10 s`,
  };
}

const earlyFill: FillGivenUp = {
  cause: 'capacity',
  transactionId: 't-1',
  orderId: 'v5',
  clientOrderId: '',
  sym: SESSION_SYM,
  side: 'BUY',
  qty: '0.01',
  price: '100',
  heldAt: 1,
  ts: 2,
  reason: 'fill t-1 of order v5 came before its order',
};

// The orders and fills the kernel gave up were only logged and counted (the fills not even that):
// the run's result, which an operator reads after the fact, said nothing of them.
describe('a live session’s warnings of what the kernel gave up', () => {
  it('name each algo order never reported once for all its orders, and each order for all its early fills', async () => {
    const rig = await newRig();
    const start = Kernel.prototype.start;
    vi.spyOn(Kernel.prototype, 'start').mockImplementation(function (this: Kernel, ...args) {
      const started = start.apply(this, args);
      const reports = this as unknown as KernelReports;
      reports.algoChildGivenUp$.next(child('v1'));
      reports.algoChildGivenUp$.next(child('v2'));
      reports.fillGivenUp$.next(earlyFill);
      return started;
    });
    const outcome = await rig.run({
      strategies: `  - { id: s, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${SESSION_SYM}, qty: 0.01 } }`,
      durationSec: 2,
    });
    const warnings = outcome.result.meta.warnings ?? [];
    expect(warnings.filter((w) => w.includes('given up to no strategy'))).toEqual([
      `algo order A-by-hand on ${SESSION_SYM} was never reported by the venue (placed by hand, or its report was lost): 2 order(s) it sent were given up to no strategy (2 after waiting 10 s), with 4 update(s) and fill(s) held for them`,
      `order v5 on ${SESSION_SYM}: 1 fill(s) came before its first update, which never came, and were given up to no strategy (1 pushed out by 1000 newer ones first)`,
    ]);
  }, 60_000);
});
