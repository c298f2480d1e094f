import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { wsOpenTimeoutOf } from '../../../config/compose/ws-open-timeout.ts';
import { formatConfigProblem } from '../../../config/loader/index.ts';
import type { KeelConfig } from '../../../config/schema/index.ts';
import { createLiveVenue, hmacSigner, type LiveVenue, VenueTimeoutError } from '../../../core/venue/index.ts';
import { liveConfigWith, liveYamlWith, parseLiveYaml } from '../../kit/config-texts.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';
import { connectTestVenue } from '../../kit/venue-session-connection.ts';
import { type FakeVenueWs, startFakeVenueWs } from '../../kit/venue-ws-server.ts';

const RULE = 'must be a whole number of ms from 1000 (1 s) to 120000 (2 min)';

describe('venue.wsOpenTimeoutMs: how long a WebSocket connection attempt may take to open', () => {
  const opened: Array<{ live: LiveVenue; sockets: FakeVenueWs[] }> = [];
  afterEach(async () => {
    for (const { live, sockets } of opened.splice(0)) {
      await live.stop();
      for (const socket of sockets) await socket.close();
    }
  });

  it('is 10 s unless the config says otherwise', () => {
    expect(liveConfigWith().venue?.wsOpenTimeoutMs).toBe(10_000);
    expect(wsOpenTimeoutOf(liveConfigWith('  wsOpenTimeoutMs: 3000'))).toEqual({ openTimeoutMs: 3_000 });
  });

  it('leaves the clients their default without a venue section (the embedded paper venue)', () => {
    expect(wsOpenTimeoutOf({} as Pick<KeelConfig, 'venue'>)).toEqual({});
  });

  it.each([
    ['0', RULE],
    ['500', RULE],
    ['600000', RULE],
    ['1500.5', 'must be a whole number, not the number 1500.5'],
    ['soon', 'must be a number, not the string "soon"'],
  ])('refuses %s in one sentence that says why, at the value', (value, why) => {
    const text = liveYamlWith(`  wsOpenTimeoutMs: ${value}`);
    const result = parseLiveYaml(text);
    expect(result.ok ? [] : result.problems.map(formatConfigProblem)).toEqual([
      `✖ venue.wsOpenTimeoutMs ${why} → at venue.wsOpenTimeoutMs (live.yaml:6:20)`,
    ]);
  });

  it('reaches both sockets: an upgrade never answered is abandoned after the configured 3 s', async () => {
    const [privateVenue, marketVenue] = await Promise.all([startFakeVenueWs(), startFakeVenueWs()]);
    privateVenue.hangUpgrades = 1;
    marketVenue.hangUpgrades = 1;
    const timer = fakeTimer();
    const live = createLiveVenue({
      restUrl: 'http://127.0.0.1:9',
      privateWsUrl: privateVenue.url,
      marketDataUrl: marketVenue.url,
      signer: hmacSigner('k', 's'),
      timer,
      random: { next: () => 0 },
      logger: pino({ level: 'silent' }),
      ...wsOpenTimeoutOf(liveConfigWith('  wsOpenTimeoutMs: 3000')),
    });
    opened.push({ live, sockets: [privateVenue, marketVenue] });
    const outcomes: unknown[] = [];
    for (const attempt of [live.privateWs.connect(), live.marketData.connect()])
      attempt.then(
        () => outcomes.push('open'),
        (error: unknown) => outcomes.push(error),
      );
    const upgraded = async () => {
      for (let turn = 0; turn < 200 && privateVenue.upgrades + marketVenue.upgrades < 2; turn++)
        await new Promise((resolve) => setTimeout(resolve, 5));
    };
    await upgraded();
    await timer.advance(2_999);
    expect(outcomes).toEqual([]);
    await timer.advance(1);
    for (let turn = 0; turn < 200 && outcomes.length < 2; turn++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(outcomes).toHaveLength(2);
    for (const outcome of outcomes) expect(outcome).toBeInstanceOf(VenueTimeoutError);
  });

  it("reaches a session's sockets from the config: both give up on a hung upgrade after 1 s, not the default 10 s", async () => {
    const [privateVenue, marketVenue] = await Promise.all([startFakeVenueWs(), startFakeVenueWs()]);
    privateVenue.hangUpgrades = 1;
    marketVenue.hangUpgrades = 1;
    const live = connectTestVenue(liveConfigWith('  wsOpenTimeoutMs: 1000'), {
      privateWsUrl: privateVenue.url,
      marketDataWsUrl: marketVenue.url,
    });
    opened.push({ live, sockets: [privateVenue, marketVenue] });
    const outcomes = await Promise.all(
      [live.privateWs.connect(), live.marketData.connect()].map((attempt) =>
        attempt.then(
          () => 'open',
          (error: unknown) => error,
        ),
      ),
    );
    for (const outcome of outcomes) {
      expect(outcome).toBeInstanceOf(VenueTimeoutError);
      expect((outcome as VenueTimeoutError).timeoutMs).toBe(1_000);
    }
  });
});
