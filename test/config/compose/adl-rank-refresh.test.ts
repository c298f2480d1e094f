import { pino } from 'pino';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { refreshAdlRanks } from '../../../config/compose/adl-rank-refresh.ts';
import type { UserEvent } from '../../../core/model/index.ts';
import { VenueError } from '../../../core/venue/index.ts';
import { aPositionUpdate, BTC } from '../../kit/kernel-events.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';

const SPOT = 'BINANCE_SPOT_BTC_USDT';

function rig(everyMs: number, fail?: (sym: string | undefined) => Error | undefined) {
  const events = new Subject<UserEvent>();
  const timer = fakeTimer();
  const reads: Array<string | undefined> = [];
  const stop = refreshAdlRanks({
    events,
    refresh: (sym) => {
      reads.push(sym);
      const error = fail?.(sym);
      return error === undefined ? Promise.resolve() : Promise.reject(error);
    },
    monitored: (sym) => sym === BTC,
    timer,
    everyMs,
    logger: pino({ level: 'silent' }),
  });
  return { events, timer, reads, stop };
}

describe("a session's ADL rank refresh (the venue pushes no rank)", () => {
  it("reads a perpetual position's rank when it changes stating none, and every open position's every everyMs", async () => {
    const r = rig(10_000);
    r.events.next(aPositionUpdate(1, '2'));
    r.events.next(aPositionUpdate(2, '3', { adlRank: 2 }));
    r.events.next(aPositionUpdate(3, '1', { sym: SPOT }));
    await Promise.resolve();
    expect(r.reads).toEqual([BTC]);
    await r.timer.advance(10_000);
    expect(r.reads).toEqual([BTC, undefined]);
    r.events.next(aPositionUpdate(4, '0'));
    await r.timer.advance(10_000);
    expect(r.reads).toEqual([BTC, undefined]);
    r.stop();
  });

  it('stops asking about a sym the venue does not monitor (401011), and asks nothing at everyMs 0', async () => {
    const r = rig(10_000, (sym) =>
      sym === BTC
        ? new VenueError({ code: 401011, message: 'not supported', method: 'GET', path: '/api/v1/adl/rank' })
        : undefined,
    );
    r.events.next(aPositionUpdate(1, '2'));
    await new Promise((resolve) => setImmediate(resolve));
    r.events.next(aPositionUpdate(2, '3'));
    await r.timer.advance(10_000);
    expect(r.reads).toEqual([BTC]);
    r.stop();
    const off = rig(0);
    off.events.next(aPositionUpdate(1, '2'));
    await off.timer.advance(60_000);
    expect(off.reads).toEqual([]);
  });
});
