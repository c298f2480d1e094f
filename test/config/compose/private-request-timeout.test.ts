import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { privateRequestTimeoutOf } from '../../../config/compose/private-request-timeout.ts';
import { formatConfigProblem } from '../../../config/loader/index.ts';
import type { KeelConfig } from '../../../config/schema/index.ts';
import { createLiveVenue, hmacSigner, VenueTimeoutError } from '../../../core/venue/index.ts';
import { liveConfigWith, liveYamlWith, parseLiveYaml } from '../../kit/config-texts.ts';
import { liveVenuesStoppedAfterEach } from '../../kit/live-venues-stopped.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';
import { connectTestVenue } from '../../kit/venue-session-connection.ts';
import { startFakeVenueWs } from '../../kit/venue-ws-server.ts';

const RULE = 'must be a whole number of ms from 1000 (1 s) to 60000 (1 min)';

describe('venue.privateRequestTimeoutMs: how long a private WebSocket request waits for its reply', () => {
  const opened = liveVenuesStoppedAfterEach();

  it('is 5 s unless the config says otherwise', () => {
    expect(liveConfigWith().venue?.privateRequestTimeoutMs).toBe(5_000);
    expect(privateRequestTimeoutOf(liveConfigWith('  privateRequestTimeoutMs: 12000'))).toEqual({
      requestTimeoutMs: 12_000,
    });
  });

  it('leaves the client its default without a venue section (the embedded paper venue)', () => {
    expect(privateRequestTimeoutOf({} as Pick<KeelConfig, 'venue'>)).toEqual({});
  });

  it.each([
    ['0', RULE],
    ['999', RULE],
    ['60001', RULE],
    ['1500.5', 'must be a whole number, not the number 1500.5'],
    ['slow', 'must be a number, not the string "slow"'],
  ])('refuses %s in one sentence that says why, at the value', (value, why) => {
    const result = parseLiveYaml(liveYamlWith(`  privateRequestTimeoutMs: ${value}`));
    expect(result.ok ? [] : result.problems.map(formatConfigProblem)).toEqual([
      `✖ venue.privateRequestTimeoutMs ${why} → at venue.privateRequestTimeoutMs (live.yaml:6:28)`,
    ]);
  });

  it('reaches the private socket: a command waits the configured 8 s for its reply, not the default 5 s', async () => {
    const socket = await startFakeVenueWs();
    socket.onRequest = () => undefined;
    const timer = fakeTimer();
    const live = createLiveVenue({
      restUrl: 'http://127.0.0.1:9',
      privateWsUrl: socket.url,
      marketDataUrl: 'ws://127.0.0.1:9/marketdata/v2/public',
      signer: hmacSigner('k', 's'),
      timer,
      random: { next: () => 0 },
      logger: pino({ level: 'silent' }),
      privateHeartbeat: { pingIntervalMs: 25_000 },
      ...privateRequestTimeoutOf(liveConfigWith('  privateRequestTimeoutMs: 8000')),
    });
    opened(live, socket);
    await live.privateWs.connect();
    let outcome: unknown;
    live.privateWs.request('replace_order', { clientOrderId: 'c1' }).then(
      () => {
        outcome = 'answered';
      },
      (error: unknown) => {
        outcome = error;
      },
    );
    await timer.advance(7_999);
    expect(outcome).toBeUndefined();
    await timer.advance(1);
    expect(outcome).toBeInstanceOf(VenueTimeoutError);
    expect((outcome as VenueTimeoutError).timeoutMs).toBe(8_000);
  });

  it("reaches a session's private socket from the config: a command gives up after 1 s", async () => {
    const socket = await startFakeVenueWs();
    socket.onRequest = () => undefined;
    const live = connectTestVenue(liveConfigWith('  privateRequestTimeoutMs: 1000'), {
      privateWsUrl: socket.url,
    });
    opened(live, socket);
    await live.privateWs.connect();
    const outcome = await live.privateWs
      .request('cancel_order', { clientOrderId: 'c1' })
      .catch((error) => error);
    expect(outcome).toBeInstanceOf(VenueTimeoutError);
    expect((outcome as VenueTimeoutError).timeoutMs).toBe(1_000);
  });
});
