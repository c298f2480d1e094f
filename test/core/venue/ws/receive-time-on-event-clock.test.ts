import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { MarketEvent } from '../../../../core/model/index.ts';
import { MarketDataClient, type RawInboundFrame } from '../../../../core/venue/index.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const bboFrame = (ts: number): string =>
  JSON.stringify({
    arg: { channel: 'BBO', sym: SYM },
    data: { bid: '100', bidqty: '1', ask: '101', askqty: '1', ts },
  });

describe("a market event's recvTs is on the session's clock, the one ctx.now() reads", () => {
  it("stamps each frame with the event clock (a paper session's replay time), not the machine's, gated or not", () => {
    const timer = fakeTimer(1_800_000_000_000);
    let sessionAt = 1_700_000_000_000;
    const held: Array<() => void> = [];
    const make = (gated: boolean, raws: RawInboundFrame[]): MarketDataClient => {
      const client = new MarketDataClient({
        url: 'ws://127.0.0.1:1/unused',
        timer,
        eventClock: () => sessionAt,
        logger: pino({ level: 'silent' }),
        onRaw: (raw) => raws.push(raw),
        ...(gated ? { gate: (_text: string, handle: () => void) => held.push(handle) } : {}),
      });
      // A BBO of a sym not subscribed to is dropped as unexpected.
      client.subscribe({ channel: 'BBO', sym: SYM });
      return client;
    };
    const rawsDirect: RawInboundFrame[] = [];
    const direct = make(false, rawsDirect);
    const events: MarketEvent[] = [];
    direct.events.subscribe((e) => events.push(e));
    direct.receive(bboFrame(sessionAt), false);
    const rawsGated: RawInboundFrame[] = [];
    const gated = make(true, rawsGated);
    gated.events.subscribe((e) => events.push(e));
    gated.receive(bboFrame(sessionAt), false);
    // The gate lets the frame through once the replay moved on: it is received then.
    sessionAt += 250;
    held[0]?.();
    expect(events.map((e) => e.recvTs)).toEqual([1_700_000_000_000, 1_700_000_000_250]);
    expect([...rawsDirect, ...rawsGated].map((r) => r.recvTs)).toEqual([
      1_700_000_000_000, 1_700_000_000_250,
    ]);
  });
});
