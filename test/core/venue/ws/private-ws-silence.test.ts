import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ConnectionEvent,
  ConnectionLostError,
  hmacSigner,
  PrivateWsClient,
  type PrivateWsOptions,
} from '../../../../core/venue/index.ts';
import { type FakeTimer, fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { type FakeVenueWs, startFakeVenueWs } from '../../../kit/venue-ws-server.ts';

describe('private WebSocket: a link that stays open but carries nothing', () => {
  let venue: FakeVenueWs;
  let timer: FakeTimer;
  let client: PrivateWsClient;
  let connections: ConnectionEvent[];

  const connect = async (options: Partial<PrivateWsOptions> = {}): Promise<void> => {
    client = new PrivateWsClient({
      url: venue.url,
      signer: hmacSigner('ws-key', 'ws-secret'),
      timer,
      random: { next: () => 0 },
      requestTimeoutMs: 60_000,
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger: pino({ level: 'silent' }),
      ...options,
    });
    client.connection.subscribe((event) => connections.push(event));
    await client.connect();
  };
  const dropReason = (): string => {
    const drop = connections.find((event) => event.kind === 'dropped');
    return drop?.kind === 'dropped' ? drop.reason : '';
  };

  beforeEach(async () => {
    venue = await startFakeVenueWs();
    timer = fakeTimer();
    connections = [];
  });
  afterEach(async () => {
    await client.close();
    await venue.close();
  });

  it('is dropped 15 s after its last frame by default (a ping every 5 s, 3 silent intervals), failing what waits for a reply', async () => {
    venue.answerPings = false;
    venue.onRequest = () => undefined;
    await connect();
    const unanswered = client
      .request('replace_order', { clientOrderId: 'c1' })
      .catch((error: unknown) => error);
    await timer.advance(14_999);
    expect(connections.map((event) => event.kind)).toEqual(['loggedIn']);
    expect(venue.frames.filter((frame) => frame === 'ping')).toHaveLength(2);
    await timer.advance(1);
    await waitFor(() => connections.length === 2, 'the silent socket dropped');
    expect(dropReason()).toBe('silent for 15000 ms (3 ping intervals without a frame or pong)');
    expect(client.isLoggedIn).toBe(false);
    expect(await unanswered).toBeInstanceOf(ConnectionLostError);
  });

  it('counts the silence from the last frame, so the verdict comes at the limit, not at the ping after it', async () => {
    await connect({ pingIntervalMs: 20_000, silentPings: 2 });
    venue.answerPings = false;
    await timer.advance(10_000);
    venue.push({ topic: 'unknown-channel', data: [] });
    await waitFor(() => client.counters.frames === 2, 'the push');
    await timer.advance(39_999);
    expect(connections.map((event) => event.kind)).toEqual(['loggedIn']);
    await timer.advance(1);
    await waitFor(() => connections.length === 2, 'the silent socket dropped');
    expect(dropReason()).toBe('silent for 40000 ms (2 ping intervals without a frame or pong)');
  });

  it('keeps a quiet socket that answers its pings, and logs in again after dropping a silent one', async () => {
    await connect();
    for (let ping = 1; ping <= 6; ping++) {
      await timer.advance(5_000);
      await waitFor(() => client.counters.heartbeats === ping, `pong ${ping}`);
    }
    expect(connections.map((event) => event.kind)).toEqual(['loggedIn']);
    venue.answerPings = false;
    await timer.advance(15_000);
    await waitFor(() => connections.length === 2, 'the silent socket dropped');
    venue.answerPings = true;
    await timer.advance(1_000);
    await waitFor(() => connections.length === 3, 'the login after the drop');
    expect(connections[2]).toMatchObject({ kind: 'loggedIn', reconnect: true });
    expect(client.isLoggedIn).toBe(true);
  });
});
