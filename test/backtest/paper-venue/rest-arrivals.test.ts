import { describe, expect, it } from 'vitest';
import type { LockstepAckExtras } from '../../../backtest/paper-venue/market-feed.ts';
import { RestArrivals } from '../../../backtest/paper-venue/rest-arrivals.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';

function rig() {
  const applied: number[] = [];
  const timer = fakeTimer();
  const arrivals = new RestArrivals(
    (seq: number, _extras: LockstepAckExtras) => applied.push(seq),
    timer,
    2000,
  );
  return { applied, timer, arrivals };
}

describe('lockstep acks held for the REST requests they count', () => {
  it('applies an ack at once when it counts nothing, or only requests already taken in', () => {
    const { applied, arrivals } = rig();
    arrivals.ack(1, {});
    arrivals.ack(2, { restEpoch: 'e', restSent: 0 });
    arrivals.arrived('e:1');
    arrivals.ack(3, { restEpoch: 'e', restSent: 1 });
    expect(applied).toEqual([1, 2, 3]);
  });

  it('holds an ack until every request it counts arrived, in whatever order they arrive', () => {
    const { applied, arrivals } = rig();
    arrivals.ack(5, { restEpoch: 'e', restSent: 3 });
    arrivals.arrived('e:3');
    arrivals.arrived('e:1');
    expect(applied).toEqual([]);
    arrivals.arrived('other:2');
    expect(applied).toEqual([]);
    arrivals.arrived('e:2');
    expect(applied).toEqual([5]);
  });

  it('lets a later ack replace a held one (acks are cumulative)', () => {
    const { applied, arrivals } = rig();
    arrivals.ack(5, { restEpoch: 'e', restSent: 1 });
    arrivals.ack(6, { restEpoch: 'e', restSent: 2 });
    arrivals.arrived('e:1');
    expect(applied).toEqual([]);
    arrivals.arrived('e:2');
    expect(applied).toEqual([6]);
  });

  it('lets a held ack through after the stall bound, so a request lost on the way cannot stop the replay', async () => {
    const { applied, arrivals, timer } = rig();
    arrivals.ack(7, { restEpoch: 'e', restSent: 1 });
    await timer.advance(1999);
    expect(applied).toEqual([]);
    await timer.advance(1);
    expect(applied).toEqual([7]);
    arrivals.arrived('e:1');
    expect(applied).toEqual([7]);
  });

  it('ignores headers that are not <epoch>:<n>', () => {
    const { applied, arrivals } = rig();
    arrivals.ack(1, { restEpoch: 'e', restSent: 1 });
    for (const bad of [undefined, 'e', 'e:x', 'e:0', ':1', ['e:1']]) arrivals.arrived(bad);
    expect(applied).toEqual([]);
  });
});
