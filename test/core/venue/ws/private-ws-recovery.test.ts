import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ConnectionEvent,
  hmacSigner,
  PrivateWsClient,
  type PrivateWsOptions,
  VenueTimeoutError,
} from '../../../../core/venue/index.ts';
import { type FakeTimer, fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { type FakeVenueWs, startFakeVenueWs } from '../../../kit/venue-ws-server.ts';

const signer = hmacSigner('ws-key', 'ws-secret');
const logger = pino({ level: 'silent' });

describe('private WebSocket client: recovery from a hung upgrade and a silent login', () => {
  let venue: FakeVenueWs;
  let timer: FakeTimer;
  let client: PrivateWsClient;
  const cleanup: (() => Promise<unknown>)[] = [];

  const start = (options: Partial<PrivateWsOptions> = {}) => {
    client = new PrivateWsClient({
      url: venue.url,
      signer,
      timer,
      random: { next: () => 0 },
      requestTimeoutMs: 1_000,
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger,
      ...options,
    });
    cleanup.push(() => client.close());
    return client;
  };

  beforeEach(async () => {
    venue = await startFakeVenueWs();
    timer = fakeTimer(1_700_000_000_000);
    cleanup.push(() => venue.close());
  });
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('abandons a reconnect whose upgrade never completes after 10 s (the default) and reconnects with backoff', async () => {
    start();
    const connections: ConnectionEvent[] = [];
    client.connection.subscribe((e) => connections.push(e));
    await client.connect();
    venue.hangUpgrades = 1;
    venue.dropAll();
    await waitFor(() => connections.some((e) => e.kind === 'dropped'), 'the drop');
    await timer.advance(1_000);
    await waitFor(() => venue.upgrades === 2, 'the reconnect reaching the venue');
    await timer.advance(9_999);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect({ upgrades: venue.upgrades, loggedIn: client.isLoggedIn }).toEqual({
      upgrades: 2,
      loggedIn: false,
    });
    await timer.advance(1);
    await advanceUntil(timer, () => client.isLoggedIn, 'the login after the abandoned attempt');
    expect({ upgrades: venue.upgrades, logins: venue.logins }).toEqual({ upgrades: 3, logins: 2 });
    expect(connections.map((e) => e.kind)).toEqual(['loggedIn', 'dropped', 'loggedIn']);
  });

  it('fails a first connect whose upgrade never completes with VenueTimeoutError after openTimeoutMs, and keeps trying', async () => {
    start({ openTimeoutMs: 3_000 });
    venue.hangUpgrades = 1;
    const connecting = client.connect().catch((e: unknown) => e);
    await waitFor(() => venue.upgrades === 1, 'the upgrade reaching the venue');
    await timer.advance(3_000);
    const error = await connecting;
    expect(error).toBeInstanceOf(VenueTimeoutError);
    expect((error as VenueTimeoutError).message).toBe(
      'private WebSocket opening handshake got no answer within 3000 ms',
    );
    await advanceUntil(timer, () => client.isLoggedIn, 'the login of the next attempt');
    expect(venue.upgrades).toBe(2);
  });

  it('drops a connection whose login reply never comes once the reply timeout passes, and logs in on the next attempt', async () => {
    start();
    venue.onLogin = () => null;
    const connecting = client.connect().catch((e: unknown) => e);
    await waitFor(() => venue.logins === 1, 'the login reaching the venue');
    await timer.advance(1_000);
    expect(await connecting).toBeInstanceOf(VenueTimeoutError);
    venue.onLogin = () => 0;
    await advanceUntil(timer, () => client.isLoggedIn, 'the login of the next attempt');
    expect({ upgrades: venue.upgrades, logins: venue.logins }).toEqual({ upgrades: 2, logins: 2 });
  });
});
