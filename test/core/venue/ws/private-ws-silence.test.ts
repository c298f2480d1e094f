import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ConnectionEvent,
  ConnectionLostError,
  hmacSigner,
  PrivateWsClient,
  type PrivateWsOptions,
  VenueTimeoutError,
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

  it('drops a link that answers neither a request nor the ping that follows it, one ping interval after the request timed out', async () => {
    await connect({ requestTimeoutMs: 2_000 });
    venue.answerPings = false;
    venue.onRequest = () => undefined;
    const unanswered = client
      .request('replace_order', { clientOrderId: 'c1' })
      .catch((error: unknown) => error);
    await timer.advance(2_000);
    await waitFor(() => venue.frames.filter((frame) => frame === 'ping').length === 1, 'the probing ping');
    expect(await unanswered).toBeInstanceOf(VenueTimeoutError);
    await timer.advance(4_999);
    expect(connections.map((event) => event.kind)).toEqual(['loggedIn']);
    await timer.advance(1);
    await waitFor(() => connections.length === 2, 'the silent socket dropped');
    expect(dropReason()).toBe('silent for 7000 ms (a request got no reply, then a ping got no pong)');
  });

  it('keeps a link whose venue is only slow to answer a request: its pongs come', async () => {
    await connect({ requestTimeoutMs: 2_000 });
    venue.onRequest = () => undefined;
    const unanswered = client
      .request('replace_order', { clientOrderId: 'c1' })
      .catch((error: unknown) => error);
    await timer.advance(2_000);
    expect(await unanswered).toBeInstanceOf(VenueTimeoutError);
    await waitFor(() => client.counters.heartbeats === 1, 'the pong of the probing ping');
    for (let pong = 2; pong <= 7; pong++) {
      await timer.advance(5_000);
      await waitFor(() => client.counters.heartbeats === pong, `pong ${pong}`);
    }
    expect(connections.map((event) => event.kind)).toEqual(['loggedIn']);
  });
});
