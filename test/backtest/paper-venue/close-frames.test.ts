import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { CLOSE_GRACE_MS } from '../../../backtest/paper-venue/venue-connections.ts';
import {
  type ConnectionEvent,
  hmacSigner,
  PrivateWsClient,
  realTimer,
  ServerClock,
} from '../../../core/venue/index.ts';
import { aPaperVenue } from '../../kit/paper-venue-builders.ts';
import { loggedIn, openCollecting } from '../../kit/paper-venue-client.ts';

const venues: PaperVenue[] = [];
afterEach(async () => {
  for (const venue of venues.splice(0)) await venue.close().catch(() => undefined);
});

async function aVenue(): Promise<PaperVenue> {
  const venue = await aPaperVenue();
  venues.push(venue);
  return venue;
}

/** The code and reason the client's socket closes with. */
function closeOf(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
}

// A closing venue terminated its sockets: every client saw 1006 (abnormal closure, no close
// frame), as if the network had failed, instead of the venue going away.
describe('a paper venue that closes', () => {
  it('sends its clients a close frame, 1001 going away with a reason, on both WebSockets', async () => {
    const venue = await aVenue();
    const priv = await loggedIn(venue.privateWsUrl, venue);
    const md = await openCollecting(`${venue.marketDataWsUrl}?binary=false`);
    const closes = Promise.all([closeOf(priv.ws), closeOf(md.ws)]);
    await venue.close();
    expect(await closes).toEqual([
      { code: 1001, reason: 'the paper venue is closing' },
      { code: 1001, reason: 'the paper venue is closing' },
    ]);
  });

  it('does not wait for a client that never answers the close frame: it drops it after a second', async () => {
    const venue = await aVenue();
    const deaf = await openCollecting(`${venue.marketDataWsUrl}?binary=false`);
    // The client reads nothing more: it never sees the close frame, so it never answers it.
    (deaf.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const started = Date.now();
    await venue.close();
    expect(Date.now() - started).toBeLessThan(CLOSE_GRACE_MS + 2_000);
  });

  it("tells Keel's live adapter the venue closed with 1001 (it reconnects after any code alike)", async () => {
    const venue = await aVenue();
    const signer = hmacSigner(venue.apiKey, venue.apiSecret);
    const ws = new PrivateWsClient({
      url: venue.privateWsUrl,
      signer,
      serverClock: new ServerClock(realTimer(), pino({ level: 'silent' })),
      logger: pino({ level: 'silent' }),
      reconnect: { baseMs: 60_000, capMs: 60_000 },
    });
    const events: ConnectionEvent[] = [];
    ws.connection.subscribe((event) => events.push(event));
    try {
      await ws.connect();
      await venue.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(events.map((event) => (event.kind === 'dropped' ? event.reason : event.kind))).toEqual([
        'loggedIn',
        'closed with code 1001',
      ]);
    } finally {
      await ws.close();
    }
  });
});
