// A session stopped (SIGTERM) while the execution client's start() primed its catch-up over REST:
// stop() closed the private WebSocket, then start() went on, connected it, logged in and
// reconnected forever, so `keel run` said "stopped before trading" and never exited.
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  hmacSigner,
  LiveExecutionClient,
  PrivateWsClient,
  VenueRestClient,
} from '../../../../core/venue/index.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { type FakeVenueHttp, startFakeVenueHttp } from '../../../kit/venue-http-server.ts';
import { ok } from '../../../kit/venue-wire-samples.ts';
import { type FakeVenueWs, startFakeVenueWs } from '../../../kit/venue-ws-server.ts';

describe('live execution client stopped while it starts', () => {
  let http: FakeVenueHttp;
  let ws: FakeVenueWs;
  let rest: VenueRestClient;
  afterEach(async () => {
    await rest.close();
    await ws.close();
    await http.close();
  });

  it('neither connects nor reconciles once stop() came during the REST priming', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    // The executions the catch-up primes from are answered only after the stop.
    http = await startFakeVenueHttp(() => ({
      body: ok({ page: 1, pageSize: 100, totalSize: 0, list: [] }),
      heldUntil: held,
    }));
    ws = await startFakeVenueWs();
    const timer = fakeTimer(1_700_000_000_000);
    const logger = pino({ level: 'silent' });
    const signer = hmacSigner('k', 's');
    rest = new VenueRestClient({
      baseUrl: http.url,
      signer,
      timer,
      logger,
      retry: { maxRetries: 0, baseMs: 1, capMs: 1 },
    });
    const privateWs = new PrivateWsClient({ url: ws.url, signer, timer, logger, requestTimeoutMs: 1_000 });
    const live = new LiveExecutionClient({ rest, ws: privateWs, timer, brokerClientId: 'acct-1', logger });
    const started = live.start();
    started.catch(() => {});
    await new Promise((r) => setTimeout(r, 50));
    await live.stop();
    release();
    await expect(started).rejects.toBeInstanceOf(ClientClosedError);
    await new Promise((r) => setTimeout(r, 100));
    expect(privateWs.isLoggedIn).toBe(false);
    expect(ws.frames.filter((f) => f.includes('"login"'))).toHaveLength(0);
  });
});
