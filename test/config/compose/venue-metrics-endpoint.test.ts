import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { VenueMetrics } from '../../../config/compose/venue-metrics.ts';

let metrics: VenueMetrics | undefined;
afterEach(async () => {
  await metrics?.close();
  metrics = undefined;
});

/** Serves the metrics on a free port. @returns the endpoint's URL */
async function served(): Promise<URL> {
  metrics = new VenueMetrics();
  return new URL(await metrics.listen('127.0.0.1', 0));
}

describe('the /metrics endpoint', () => {
  it('closes at once although a connection never finished its request (it held up the shutdown)', async () => {
    const url = await served();
    const socket = connect(Number(url.port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('GET /metrics HTTP/1.1\r\nHost: x\r\n');
    await new Promise((r) => setTimeout(r, 50));
    const closedIn = await Promise.race([
      metrics?.close().then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('still open after 2 s'), 2_000)),
    ]);
    socket.destroy();
    expect(closedIn).toBe('closed');
  });

  it('closes at once although a scraper holds an idle connection open', async () => {
    const url = await served();
    const socket = connect(Number(url.port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    await new Promise((r) => setTimeout(r, 50));
    const closedIn = await Promise.race([
      metrics?.close().then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('still open after 2 s'), 2_000)),
    ]);
    socket.destroy();
    expect(closedIn).toBe('closed');
  });

  it('serves /metrics with a query string, as scrapers may add one', async () => {
    const url = await served();
    const response = await fetch(`${url.href}?x=1`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('keel_venue_connected');
    expect((await fetch(new URL('/other?x=1', url))).status).toBe(404);
  });
});
