import { connect } from 'node:net';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { VenueMetrics } from '../../../config/compose/venue-metrics.ts';
import type { VenueStatus } from '../../../core/model/index.ts';
import { createInboundCounters } from '../../../core/venue/index.ts';

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

  it("answers a supervisor's probes: /healthz while the process runs, /readyz while the market stream is up (keel record)", async () => {
    const url = await served();
    const status = new Subject<VenueStatus>();
    metrics?.watchVenue(status, { market: createInboundCounters() });
    const probe = async (path: string) => {
      const response = await fetch(new URL(path, url));
      return `${response.status} ${await response.text()}`;
    };
    expect(await probe('/healthz')).toBe('200 ok\n');
    expect(await probe('/readyz')).toBe('503 not ready: the market stream has not connected yet\n');
    status.next({ stream: 'market', state: 'up', ts: 0 });
    expect(await probe('/readyz?verbose')).toBe('200 ready\n');
    status.next({ stream: 'market', state: 'down', ts: 1, reason: 'closed with code 1006' });
    expect(await probe('/readyz')).toBe('503 not ready: the market stream is down (closed with code 1006)\n');
    expect(await probe('/healthz')).toBe('200 ok\n');
  });

  it('fails /readyz while a reason added holds, and from the moment the process stops, naming that first; /healthz stays ok', async () => {
    const url = await served();
    const status = new Subject<VenueStatus>();
    metrics?.watchVenue(status, { market: createInboundCounters() });
    const probe = async (path: string) => {
      const response = await fetch(new URL(path, url));
      return `${response.status} ${await response.text()}`;
    };
    let halted: string | undefined;
    metrics?.notReadyWhile(() => halted);
    status.next({ stream: 'market', state: 'up', ts: 0 });
    expect(await probe('/readyz')).toBe('200 ready\n');
    halted = 'trading is halted';
    expect(await probe('/readyz')).toBe('503 not ready: trading is halted\n');
    halted = undefined;
    expect(await probe('/readyz')).toBe('200 ready\n');
    metrics?.stopping('the recording is stopping (SIGTERM)');
    metrics?.stopping('a later reason is not taken');
    halted = 'trading is halted';
    status.next({ stream: 'market', state: 'down', ts: 1 });
    expect(await probe('/readyz')).toBe(
      '503 not ready: the recording is stopping (SIGTERM); trading is halted; the market stream is down\n',
    );
    expect(await probe('/healthz')).toBe('200 ok\n');
  });

  it('names the streams not ready in short for the status line, as /readyz names them', () => {
    metrics = new VenueMetrics();
    const status = new Subject<VenueStatus>();
    metrics.watchVenue(status, { market: createInboundCounters() });
    expect(metrics.streamsNotReady()).toEqual(['market not connected']);
    status.next({ stream: 'market', state: 'up', ts: 0 });
    expect(metrics.streamsNotReady()).toEqual([]);
    status.next({ stream: 'market', state: 'down', ts: 1, reason: 'silent for two ping intervals' });
    expect(metrics.streamsNotReady()).toEqual(['market down']);
  });
});
