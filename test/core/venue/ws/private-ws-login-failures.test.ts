import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConnectionLostError,
  ConnectionNotOpenedError,
  hmacSigner,
  PrivateWsClient,
} from '../../../../core/venue/index.ts';
import { aFreePort } from '../../../kit/free-port.ts';
import { type FakeTimer, fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { type FakeVenueWs, startFakeVenueWs } from '../../../kit/venue-ws-server.ts';

describe('private WebSocket client: what a failed login attempt says', () => {
  let timer: FakeTimer;
  const clients: PrivateWsClient[] = [];
  const venues: FakeVenueWs[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    for (const venue of venues.splice(0)) await venue.close();
  });

  /** A client of `url` whose warnings go to `warnings` as `msg: err`. */
  function aClient(url: string, warnings: string[] = []): PrivateWsClient {
    timer = fakeTimer(1_700_000_000_500);
    const client = new PrivateWsClient({
      url,
      signer: hmacSigner('ws-key', 'ws-secret'),
      timer,
      random: { next: () => 0 },
      requestTimeoutMs: 1_000,
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger: pino({ level: 'warn' }, { write: (line: string) => warnings.push(warningOf(line)) }),
    });
    clients.push(client);
    return client;
  }

  it('says the login was not sent when the connection is refused', async () => {
    const port = await aFreePort();
    const error = await aClient(`ws://127.0.0.1:${port}`)
      .connect()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionNotOpenedError);
    expect((error as Error).message).toBe(
      `private WebSocket login was not sent: the connection closed before it opened (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
  });

  it('says the login was sent when the connection drops before its reply', async () => {
    const venue = await startFakeVenueWs();
    venues.push(venue);
    venue.onLogin = () => null;
    const connecting = aClient(venue.url)
      .connect()
      .catch((e: unknown) => e);
    await waitFor(() => venue.frames.some((f) => f.includes('"login"')), 'login sent');
    venue.dropAll();
    const error = await connecting;
    expect(error).toBeInstanceOf(ConnectionLostError);
    expect((error as Error).message).toBe(
      'private WebSocket login was sent but the connection dropped before its reply',
    );
  });

  it('logs a reconnect refused by a venue that went away as a login not sent', async () => {
    const venue = await startFakeVenueWs();
    const warnings: string[] = [];
    const client = aClient(venue.url, warnings);
    await client.connect();
    await venue.close();
    await waitFor(() => warnings.some((w) => w.startsWith('private WebSocket dropped')), 'drop noticed');
    await timer.advance(1_000);
    await waitFor(
      () => warnings.some((w) => w.startsWith('private WebSocket reconnect failed')),
      'retry failed',
    );
    const failed = warnings.find((w) => w.startsWith('private WebSocket reconnect failed'));
    expect(failed).toMatch(
      /^private WebSocket reconnect failed: private WebSocket login was not sent: the connection closed before it opened \(connect ECONNREFUSED /,
    );
  });
});

/**
 * @param line - a pino JSON line
 * @returns its message, and its `err` after a colon when it has one
 */
function warningOf(line: string): string {
  const record = JSON.parse(line) as { msg: string; err?: string };
  return record.err === undefined ? record.msg : `${record.msg}: ${record.err}`;
}
