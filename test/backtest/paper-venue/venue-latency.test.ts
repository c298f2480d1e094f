import { describe, expect, it } from 'vitest';
import { VenueLatency } from '../../../backtest/paper-venue/venue-latency.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';

function aVenueLatency(fixedMs: number | undefined) {
  const clock = { now: 1_000 };
  const latency = new VenueLatency({
    latency:
      fixedMs === undefined
        ? undefined
        : { orderEntry: { fixedMs, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    seed: 1,
    pacing: { mode: 'manual' },
    lockstepStallMs: 2_000,
    timer: fakeTimer(0),
    now: () => clock.now,
  });
  return { clock, latency };
}

describe('paper venue latency', () => {
  it('sends an order command to the matching engine after its delay, with its arrival', () => {
    const { latency } = aVenueLatency(200);
    const arrivals: (number | undefined)[] = [];
    latency.afterOrderEntry('placeOrder', (arrival) => arrivals.push(arrival));
    expect(latency.inFlight).toBe(1);
    latency.beforeEvent(1_199);
    expect(arrivals).toEqual([]);
    latency.beforeEvent(1_200);
    expect(arrivals).toEqual([1_200]);
  });

  it('applies a broker setting (setSubFeeRate) at once, as the sim’s setFeeMarkup', () => {
    const { latency } = aVenueLatency(200);
    const arrivals: (number | undefined)[] = [];
    latency.afterOrderEntry('setSubFeeRate', (arrival) => arrivals.push(arrival));
    expect(arrivals).toEqual([undefined]);
  });

  it('runs every command at once, undelayed, without a latency', () => {
    const { latency } = aVenueLatency(undefined);
    const arrivals: (number | undefined)[] = [];
    latency.afterOrderEntry('cancelOrder', (arrival) => arrivals.push(arrival));
    expect(arrivals).toEqual([undefined]);
    expect(latency.inFlight).toBe(0);
  });

  it('lets waiting commands and pushes through when the feed ends outside realtime pacing', () => {
    const { latency } = aVenueLatency(5_000);
    const ran: string[] = [];
    latency.afterOrderEntry('placeOrder', () => ran.push('command'));
    latency.openPushLine().enter(9_000, () => ran.push('push'));
    latency.feedEnded();
    expect(ran).toEqual(['command', 'push']);
  });
});
