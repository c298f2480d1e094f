import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { marketDataHeartbeatOf } from '../../../config/compose/market-data-heartbeat.ts';
import { privateHeartbeatOf } from '../../../config/compose/private-heartbeat.ts';
import { formatConfigProblem } from '../../../config/loader/index.ts';
import type { KeelConfig } from '../../../config/schema/index.ts';
import type { VenueStatus } from '../../../core/model/index.ts';
import { createLiveVenue, hmacSigner } from '../../../core/venue/index.ts';
import { liveConfigWith, liveYamlWith, parseLiveYaml } from '../../kit/config-texts.ts';
import { liveVenuesStoppedAfterEach } from '../../kit/live-venues-stopped.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';
import { connectTestVenue } from '../../kit/venue-session-connection.ts';
import { waitFor } from '../../kit/venue-wait.ts';
import { startFakeVenueWs } from '../../kit/venue-ws-server.ts';

const PING_RULE =
  'must be a whole number of ms from 1000 (1 s) to 25000 (25 s): the venue closes a private connection idle for 30 s';
const MARKET_PING_RULE =
  'must be a whole number of ms from 1000 (1 s) to 60000 (1 min): the stall watchdog counts in these intervals';
const SILENT_RULE =
  'must be a whole number from 2: with 1, a pong that comes a little late would drop a healthy socket';

describe('venue.privatePingMs and venue.privateSilentPings: the private socket heartbeat', () => {
  const opened = liveVenuesStoppedAfterEach();

  it('pings every 5 s and gives the socket up after 3 silent intervals unless the config says otherwise', () => {
    const venue = liveConfigWith().venue;
    expect([venue?.privatePingMs, venue?.privateSilentPings]).toEqual([5_000, 3]);
    expect(privateHeartbeatOf(liveConfigWith('  privatePingMs: 2000'))).toEqual({
      privateHeartbeat: { pingIntervalMs: 2_000, silentPings: 3 },
    });
    expect(privateHeartbeatOf(liveConfigWith('  privateSilentPings: 4'))).toEqual({
      privateHeartbeat: { pingIntervalMs: 5_000, silentPings: 4 },
    });
  });

  it('gives the market-data socket the same default heartbeat', () => {
    expect(marketDataHeartbeatOf(liveConfigWith())).toEqual({
      marketDataHeartbeat: { heartbeatMs: 5_000, silentHeartbeats: 3 },
    });
  });

  it('leaves the client its default without a venue section (the embedded paper venue)', () => {
    expect(privateHeartbeatOf({} as Pick<KeelConfig, 'venue'>)).toEqual({});
  });

  it.each([
    ['privatePingMs', '500', PING_RULE],
    ['privatePingMs', '30000', PING_RULE],
    ['privatePingMs', '1500.5', 'must be a whole number, not the number 1500.5'],
    ['privateSilentPings', '1', SILENT_RULE],
    ['privateSilentPings', '0', SILENT_RULE],
    ['marketDataSilentPings', '1', SILENT_RULE],
    ['marketDataPingMs', '999', MARKET_PING_RULE],
    ['marketDataPingMs', '60001', MARKET_PING_RULE],
    ['privateSilentPings', 'two', 'must be a number, not the string "two"'],
  ])('refuses %s %s in one sentence that says why, at the value', (key, value, why) => {
    const result = parseLiveYaml(liveYamlWith(`  ${key}: ${value}`));
    expect(result.ok ? [] : result.problems.map(formatConfigProblem)).toEqual([
      `✖ venue.${key} ${why} → at venue.${key} (live.yaml:6:${key.length + 5})`,
    ]);
  });

  it('reaches the private socket: a venue that stops answering is found after the configured 2 x 1 s, and the stream reported down', async () => {
    const socket = await startFakeVenueWs();
    const timer = fakeTimer();
    const live = createLiveVenue({
      restUrl: 'http://127.0.0.1:9',
      privateWsUrl: socket.url,
      marketDataUrl: 'ws://127.0.0.1:9/marketdata/v2/public',
      signer: hmacSigner('k', 's'),
      timer,
      random: { next: () => 0 },
      reconnect: { baseMs: 60_000, capMs: 60_000 },
      logger: pino({ level: 'silent' }),
      ...privateHeartbeatOf(liveConfigWith('  privatePingMs: 1000\n  privateSilentPings: 2')),
    });
    opened(live, socket);
    const statuses: VenueStatus[] = [];
    live.execution.status.subscribe((status) => statuses.push(status));
    await live.privateWs.connect();
    socket.answerPings = false;
    await timer.advance(1_999);
    expect(statuses.filter((status) => status.state === 'down')).toEqual([]);
    await timer.advance(1);
    await waitFor(() => statuses.some((status) => status.state === 'down'), 'the stream reported down');
    expect(statuses.find((status) => status.state === 'down')).toMatchObject({
      stream: 'private',
      reason: 'silent for 2000 ms (2 ping intervals without a frame or pong)',
    });
  });

  it("reaches a session's private socket from the config: a silent venue is dropped after 2 x 1 s", async () => {
    const socket = await startFakeVenueWs();
    const live = connectTestVenue(liveConfigWith('  privatePingMs: 1000\n  privateSilentPings: 2'), {
      privateWsUrl: socket.url,
    });
    opened(live, socket);
    const statuses: VenueStatus[] = [];
    live.execution.status.subscribe((status) => statuses.push(status));
    await live.privateWs.connect();
    socket.answerPings = false;
    await waitFor(() => statuses.some((status) => status.state === 'down'), 'the stream reported down');
    expect(statuses.find((status) => status.state === 'down')?.reason).toMatch(
      /^silent for 20\d\d ms \(2 ping intervals without a frame or pong\)$/,
    );
  });
});
