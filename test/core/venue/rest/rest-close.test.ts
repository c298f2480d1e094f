import { createServer, type Server, type Socket } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { hmacSigner, VenueRestClient } from '../../../../core/venue/index.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { waitFor } from '../../../kit/venue-wait.ts';

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A venue that takes connections and never answers, and a client on it whose backoff waits on a fake timer. */
async function clientOnSilentVenue() {
  server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const timer = fakeTimer();
  const client = new VenueRestClient({
    baseUrl: `http://127.0.0.1:${address.port}`,
    signer: hmacSigner('k', 's'),
    logger: pino({ level: 'silent' }),
    timer,
    timeoutMs: 60_000,
    retry: { maxRetries: 3, baseMs: 1_000, capMs: 1_000 },
  });
  return { client, timer };
}

describe('a REST client closed while the venue does not answer', () => {
  it('ends the GET under way once the time given to the close is up, without retrying it', async () => {
    const { client, timer } = await clientOnSilentVenue();
    const call = client.getOpenOrders().catch((error: unknown) => error);
    await waitFor(() => sockets.length > 0, 'the request to reach the venue');
    await client.close(50);
    expect(await call).toMatchObject({ code: 'UND_ERR_DESTROYED' });
    // No retry waits on its backoff.
    expect(timer.pending()).toBe(0);
  });

  it('fails a GET made after the close at once, without retrying it', async () => {
    const { client, timer } = await clientOnSilentVenue();
    await client.close();
    expect(await client.getOpenOrders().catch((error: unknown) => error)).toMatchObject({
      code: expect.stringMatching(/^UND_ERR_(CLOSED|DESTROYED)$/),
    });
    expect(timer.pending()).toBe(0);
  });
});
