import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EARLY_ALGO_CHILDREN_WAIT_MS } from '../../../config/compose/early-algo-children.ts';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import { sessionTimer } from '../../../config/compose/session-timer.ts';
import { UserDataJournal } from '../../../config/compose/user-data-journal.ts';
import type { UserEvent } from '../../../core/model/index.ts';
import { anExecution } from '../../kit/execution-builders.ts';

/** A fill of an order no strategy owns and the journal has not seen: held for the algo order it may come from. */
const unseenFill: UserEvent = {
  kind: 'execution',
  ts: 3,
  recvTs: 3,
  execution: anExecution({
    side: 'SELL',
    quantity: '1',
    price: '90',
    timestamp: 3,
    transactionId: 'x-9',
    orderId: 'v9',
    clientOrderId: '',
  }),
};

/**
 * The journal's wait for an early algo child was armed on the wall clock with session-clock ms: a
 * paper session at speed 10 held it ten times too long in session time (100 s, not 10 s).
 */
describe("a paper session's journal at replay speed 10", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends the wait for an early algo child after 10 s of session time, one wall second', () => {
    const wallStart = Date.now();
    const sessionClock = () => (Date.now() - wallStart) * 10;
    const journal = new UserDataJournal(new RunMetrics(() => 0), undefined, () => undefined, {
      timer: sessionTimer(sessionClock, () => 10),
    });
    journal.observe(unseenFill);
    expect(journal.fillCount).toBe(0);
    vi.advanceTimersByTime(EARLY_ALGO_CHILDREN_WAIT_MS / 10 + 1);
    expect(journal.fillCount).toBe(1);
    journal.dispose();
  });
});
