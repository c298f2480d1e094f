import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import type { VenueStatus } from '../../../../core/model/index.ts';
import {
  type ConnectionEvent,
  hmacSigner,
  MarketDataClient,
  PrivateWsClient,
} from '../../../../core/venue/index.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { type FakeVenueWs, startFakeVenueWs } from '../../../kit/venue-ws-server.ts';
import { type WallSteppingTimer, wallSteppingTimer } from '../../../kit/wall-stepping-timer.ts';

const HOUR_MS = 3_600_000;

describe('market-data WebSocket silence watchdog across a wall-clock step', () => {
  let server: WebSocketServer;
  let sockets: WebSocket[];
  let pings: number;
  let timer: WallSteppingTimer;
  let client: MarketDataClient;
  let statuses: VenueStatus[];

  beforeEach(async () => {
    sockets = [];
    pings = 0;
    statuses = [];
    timer = wallSteppingTimer();
    // A venue that takes pings and never answers them: only the watchdog's clock decides.
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    server.on('connection', (socket) => {
      sockets.push(socket);
      socket.on('message', (data) => {
        if (String(data).includes('ping')) pings++;
      });
    });
    client = new MarketDataClient({
      url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/marketdata/v2/public`,
      timer,
      random: { next: () => 0 },
      heartbeatMs: 20_000,
      silentHeartbeats: 2,
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger: pino({ level: 'silent' }),
    });
    client.status.subscribe((status) => statuses.push(status));
  });
  afterEach(async () => {
    await client.close();
    for (const socket of sockets) socket.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('pings rather than drops a socket one heartbeat old when the wall clock steps an hour forward', async () => {
    await client.connect();
    timer.stepWall(HOUR_MS);
    await timer.advance(20_000);
    await waitFor(() => pings === 1, 'the first ping');
    expect(statuses.map((s) => s.state)).toEqual(['up']);
    await timer.advance(20_000);
    await waitFor(() => statuses.length === 2, 'the stall reported');
    expect(statuses[1]?.reason).toContain('silent for 40000 ms');
  });

  it('still drops a socket silent for two heartbeat intervals when the wall clock steps an hour back', async () => {
    await client.connect();
    await timer.advance(10_000);
    timer.stepWall(-HOUR_MS);
    await timer.advance(30_000);
    await waitFor(() => statuses.length === 2, 'the stall reported');
    expect(statuses[1]).toMatchObject({ state: 'down' });
    expect(statuses[1]?.reason).toContain('silent for 40000 ms');
  });
});

describe('private WebSocket silence watchdog across a wall-clock step', () => {
  let venue: FakeVenueWs;
  let timer: WallSteppingTimer;
  let client: PrivateWsClient;
  let connections: ConnectionEvent[];

  beforeEach(async () => {
    venue = await startFakeVenueWs();
    timer = wallSteppingTimer();
    connections = [];
    client = new PrivateWsClient({
      url: venue.url,
      signer: hmacSigner('ws-key', 'ws-secret'),
      timer,
      random: { next: () => 0 },
      pingIntervalMs: 20_000,
      silentPings: 2,
      requestTimeoutMs: 1_000,
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger: pino({ level: 'silent' }),
    });
    client.connection.subscribe((event) => connections.push(event));
  });
  afterEach(async () => {
    await client.close();
    await venue.close();
  });

  it('pings rather than drops a socket one interval old when the wall clock steps an hour forward', async () => {
    await client.connect();
    timer.stepWall(HOUR_MS);
    await timer.advance(20_000);
    await waitFor(() => client.counters.heartbeats === 1, 'the pong');
    expect(connections.map((event) => event.kind)).toEqual(['loggedIn']);
  });

  it('still drops a socket silent for two ping intervals when the wall clock steps an hour back', async () => {
    venue.answerPings = false;
    await client.connect();
    await timer.advance(10_000);
    timer.stepWall(-HOUR_MS);
    await timer.advance(30_000);
    await waitFor(() => connections.some((event) => event.kind === 'dropped'), 'the silent socket dropped');
    expect(connections[1]).toMatchObject({ kind: 'dropped' });
    expect(connections[1]?.kind === 'dropped' ? connections[1].reason : '').toContain('silent for 40000 ms');
    expect(venue.frames.filter((frame) => frame === 'ping')).toHaveLength(1);
  });
});
