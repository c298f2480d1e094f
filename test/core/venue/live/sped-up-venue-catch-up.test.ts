import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { EXECUTION_SWEEP_MIN, LocalTradingView } from '../../../../core/venue/live/local-trading-view.ts';
import { ExecutionCatchUp } from '../../../../core/venue/live/missed-executions.ts';
import { VenueTime } from '../../../../core/venue/live/venue-time.ts';
import type { VenueRestClient } from '../../../../core/venue/rest/rest-client.ts';
import { anExecution } from '../../../kit/execution-builders.ts';
import { WIRE_EXECUTION } from '../../../kit/venue-wire-samples.ts';

/**
 * `npx keel venue --speed 5` (or a paper run at speed 5 / lockstep): the venue's Date header is the
 * wall clock, but its market data and executions are stamped on the replay's clock, which runs 5x
 * and so is ahead of the Date header by more every second. The live venue's VenueTime follows the
 * market data, so the catch-up and the seen-execution set work on the replay's clock.
 */
const START = 1_796_031_900_000;
const SPEED = 5;
const virtual = (wall: number) => START + SPEED * (wall - START);
const silent = pino({ level: 'silent' });

/** A venue whose execution list is empty; `begins` collects each listing's `begin`. */
function emptyVenue(begins: unknown[]): VenueRestClient {
  return {
    getExecutionsPage: async () => ({ list: [], totalSize: 0, pageSize: 100 }),
    async *pages(_name: string, query: { begin?: number }) {
      begins.push(query.begin);
      yield* [];
    },
  } as unknown as VenueRestClient;
}

describe('a long session against a venue whose replay runs faster than its Date header', () => {
  it('keeps the seen-execution set bounded, as on a real-time venue', () => {
    let wall = START;
    const venueTime = new VenueTime(() => wall);
    let oldestNeeded: number | undefined;
    const view = new LocalTradingView(
      () => venueTime.now(),
      () => oldestNeeded,
    );
    // 16 fills a wall second (the soak's market maker) for 30 wall minutes, each after a quote.
    const fills = 16 * 1800;
    for (let i = 1; i <= fills; i++) {
      wall = START + Math.floor(i / 16) * 1000;
      const ts = virtual(wall);
      venueTime.notePushed(ts);
      view.observe({
        kind: 'execution',
        ts,
        recvTs: ts,
        execution: anExecution({
          transactionId: `t${i}`,
          timestamp: ts,
          side: 'BUY',
          quantity: '1',
          price: '100',
        }),
      });
      oldestNeeded = (view.newestExecutionTs() ?? 0) - 120_000; // ExecutionCatchUp.oldestNeeded, 60 s margin
    }
    const seen = view.state().seenExecutionIds ?? new Set();
    expect(seen.size).toBeLessThanOrEqual(2 * EXECUTION_SWEEP_MIN);
  });

  it('asks the catch-up after a 75 s gap for the last minute of executions, as backtest/paper-venue/README.md says', async () => {
    let wall = START + 900_000; // 15 wall minutes into the session
    const venueTime = new VenueTime(() => wall);
    const begins: unknown[] = [];
    const view = new LocalTradingView(() => venueTime.now());
    const now = () => venueTime.now();
    const catchUp = new ExecutionCatchUp(
      emptyVenue(begins),
      view,
      { marginMs: 60_000, pageSize: 100 },
      silent,
      () => false,
      now,
    );
    await catchUp.prime();
    const lastFill = virtual(wall);
    venueTime.notePushed(lastFill);
    view.observe({
      kind: 'execution',
      ts: lastFill,
      recvTs: lastFill,
      execution: anExecution({
        transactionId: 'last',
        timestamp: lastFill,
        side: 'BUY',
        quantity: '1',
        price: '100',
      }),
    });
    wall += 75_000; // a 75 s feed gap, then the reconnect's catch-up
    begins.length = 0;
    await catchUp.recent();
    expect(begins[0]).toBe(lastFill - 60_000);
  });

  it('lists only the last minute at a restart against a venue whose fills run an hour ahead, and so does the next catch-up', async () => {
    const wall = START + 900_000;
    // The venue's fills of the last 100 replayed seconds, newest first, an hour ahead of its Date header.
    const onVenue = Array.from({ length: 100 }, (_, i) => ({
      ...WIRE_EXECUTION,
      transactionId: `t${i}`,
      timestamp: virtual(wall) - i * 1_000,
    }));
    const begins: Array<number | undefined> = [];
    const rest = {
      getExecutionsPage: async () => ({ list: onVenue, totalSize: onVenue.length, pageSize: 100 }),
      async *pages(_name: string, query: { begin?: number }) {
        begins.push(query.begin);
        yield* onVenue.filter((e) => query.begin === undefined || e.timestamp >= query.begin);
      },
    } as unknown as VenueRestClient;
    // No market data yet: the session subscribes once the first reconciliation is done.
    const venueTime = new VenueTime(() => wall);
    const view = new LocalTradingView(() => venueTime.now());
    const catchUp = new ExecutionCatchUp(
      rest,
      view,
      { marginMs: 60_000, pageSize: 100 },
      silent,
      () => false,
      () => venueTime.now(),
    );
    await catchUp.prime();
    await catchUp.recent();
    const secondNewest = virtual(wall) - 1_000;
    expect(begins).toEqual([secondNewest - 60_000, secondNewest - 60_000]);
  });

  it('still counts one fill stamped ahead of the data clock only as the present', () => {
    const wall = START;
    const venueTime = new VenueTime(() => wall);
    venueTime.notePushed(virtual(wall));
    const view = new LocalTradingView(() => venueTime.now());
    const ahead = venueTime.now() + 5 * 60_000;
    view.observe({
      kind: 'execution',
      ts: ahead,
      recvTs: ahead,
      execution: anExecution({
        transactionId: 'ahead',
        timestamp: ahead,
        side: 'BUY',
        quantity: '1',
        price: '100',
      }),
    });
    expect(view.newestExecutionTs()).toBe(venueTime.now());
  });
});
