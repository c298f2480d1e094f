import { describe, expect, it } from 'vitest';
import { VenueTimeEstimate } from '../../../config/compose/venue-time-estimate.ts';
import { aFeedBar, aQuote, aTrade } from '../../kit/kernel-events.ts';

const T = Date.UTC(2026, 0, 5, 12);

describe('the venue’s time as a live session sees it in its market data', () => {
  it('is the session’s clock until a quote or trade arrived', () => {
    expect(new VenueTimeEstimate().at(T)).toBe(T);
  });

  it('reads the session’s start back from the first quote, and later times forward from the newest', () => {
    const venue = new VenueTimeEstimate();
    // The venue runs 55 s behind the machine, then twice as fast.
    venue.observe(aQuote(T - 55_000, 100, 101), T + 1_000);
    venue.observe(aTrade(T - 40_000, 100, 1), T + 8_000);
    expect(venue.at(T)).toBe(T - 56_000);
    expect(venue.at(T + 10_000)).toBe(T - 38_000);
  });

  it('ignores bars (a forming one is stamped at its close, ahead of the venue) and an older event arriving late', () => {
    const venue = new VenueTimeEstimate();
    venue.observe(aQuote(T - 30_000, 100, 101), T);
    venue.observe(aFeedBar(T, [100, 101, 99, 100, 1]), T + 1_000);
    venue.observe(aTrade(T - 45_000, 100, 1), T + 2_000);
    expect(venue.at(T + 5_000)).toBe(T - 25_000);
  });
});
