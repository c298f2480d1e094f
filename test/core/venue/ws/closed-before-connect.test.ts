// A session stopped (SIGTERM) while its start-up was still on its way to connect() closes the
// clients first; the start then resumes and calls connect(). The stop must win: before, connect()
// reset the client's closed state, so the socket logged in and reconnected forever, and
// `keel run` never exited.
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import {
  ClientClosedError,
  hmacSigner,
  MarketDataClient,
  PrivateWsClient,
} from '../../../../core/venue/index.ts';
import { type FakeTimer, fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { type FakeVenueWs, startFakeVenueWs } from '../../../kit/venue-ws-server.ts';

describe('private WebSocket client closed before it connected (stop during start-up)', () => {
  let venue: FakeVenueWs;
  let timer: FakeTimer;
  let client: PrivateWsClient;
  beforeEach(async () => {
    venue = await startFakeVenueWs();
    timer = fakeTimer(1_700_000_000_500);
    client = new PrivateWsClient({
      url: venue.url,
      signer: hmacSigner('ws-key', 'ws-secret'),
      timer,
      random: { next: () => 0 },
      requestTimeoutMs: 1_000,
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger: pino({ level: 'silent' }),
    });
  });
  afterEach(async () => {
    await client.close();
    await venue.close();
  });

  it('does not log in after close() was called: connect() fails with ClientClosedError', async () => {
    await client.close();
    await expect(client.connect()).rejects.toBeInstanceOf(ClientClosedError);
    expect(client.isLoggedIn).toBe(false);
    expect(venue.frames.filter((f) => f.includes('"login"'))).toHaveLength(0);
  });
});

describe('market-data WebSocket client closed before it connected (stop during start-up)', () => {
  let server: WebSocketServer;
  let connections: number;
  beforeEach(async () => {
    connections = 0;
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    server.on('connection', () => connections++);
  });
  afterEach(async () => {
    for (const socket of server.clients) socket.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('does not open after close() was called: connect() fails with ClientClosedError', async () => {
    const client = new MarketDataClient({
      url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/marketdata`,
      timer: fakeTimer(1_700_000_000_000),
      logger: pino({ level: 'silent' }),
    });
    await client.close();
    const connecting = client.connect();
    await expect(connecting).rejects.toBeInstanceOf(ClientClosedError);
    await new Promise((r) => setTimeout(r, 100));
    expect(connections).toBe(0);
    await client.close();
  });
});
