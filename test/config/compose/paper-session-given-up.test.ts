import type { Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type AlgoChildGivenUp, defineStrategy, Kernel } from '../../../core/kernel/index.ts';
import { withListFeedPaperSession } from '../../kit/list-feed-paper-session.ts';
import { quoteRecordAt } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const newDir = tempDirsRemovedAfterEach('keel-paper-given-up-');

afterEach(() => {
  vi.restoreAllMocks();
});

const idle = defineStrategy({ name: 'idle', params: z.object({}), onQuote: () => undefined });

const pushedOut: AlgoChildGivenUp = {
  cause: 'backlog',
  clientOrderId: '',
  orderId: 'v1',
  sym: SYM,
  algoOrderId: 'A-1',
  heldAt: 1,
  dropped: 3,
  ts: 2,
  reason: 'order v1 names algo order A-1',
};

// A paper session runs the live session's code: what its kernel gives up (a push the paper
// venue's faults lost with a dropped connection, say) is named in its result as a live run's is.
describe('a paper session’s warnings of what the kernel gave up', () => {
  it('name each algo order never reported, as a live session’s do', async () => {
    const start = Kernel.prototype.start;
    vi.spyOn(Kernel.prototype, 'start').mockImplementation(function (this: Kernel, ...args) {
      const started = start.apply(this, args);
      (this as unknown as { algoChildGivenUp$: Subject<AlgoChildGivenUp> }).algoChildGivenUp$.next(pushedOut);
      return started;
    });
    const warnings = await withListFeedPaperSession(
      {
        dir: newDir(),
        quotes: [quoteRecordAt(0, '95000.1', '95000.3'), quoteRecordAt(1_000, '95000.1', '95000.3')],
        slot: { id: 'idle', strategy: idle },
        name: 'paper-given-up-test',
        // Stopped as by a SIGTERM once both quotes are out, as the kit's other sessions are.
        beforeRun: (venue) => {
          void venue.feed.until(2).then(() => process.emit('SIGTERM'));
        },
      },
      (outcome) => outcome.result.meta.warnings ?? [],
    );
    expect(warnings.filter((w) => w.includes('given up to no strategy'))).toEqual([
      `algo order A-1 on ${SYM} was never reported by the venue (placed by hand, or its report was lost): 1 order(s) it sent were given up to no strategy (1 whose updates and fills were pushed out by 1000 newer ones held first), with 3 update(s) and fill(s) held for them`,
    ]);
  }, 60_000);
});
