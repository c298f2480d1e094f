import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VenueTime } from '../../../../core/venue/live/venue-time.ts';

describe('VenueTime', () => {
  it('is the Date clock, never behind the last market time pushed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e13 }),
        fc.option(fc.integer({ min: 0, max: 1e13 })),
        (date, pushed) => {
          const time = new VenueTime(() => date);
          if (pushed !== null) time.notePushed(pushed);
          expect(time.now()).toBe(pushed === null ? date : Math.max(date, pushed));
        },
      ),
    );
  });

  it('is undone by the next market time after one stamped far ahead', () => {
    const time = new VenueTime(() => 1_000);
    time.notePushed(1_000_000_000);
    time.notePushed(1_500);
    expect(time.now()).toBe(1_500);
  });
});
