import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/exit-codes.ts';
import { type FreezableTcpProxy, startFreezableTcpProxy } from '../../kit/freezable-tcp-proxy.ts';
import { type LiveSessionRig, liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';
import { datedOn, type FakeVenueHttp, startFakeVenueHttp } from '../../kit/venue-http-server.ts';
import { ok, page } from '../../kit/venue-wire-samples.ts';

const REST_AND_TAKE = resolve('test/config/fixtures/rest-and-take-plugin.ts');
const newRig = liveSessionRigs();
const proxies: FreezableTcpProxy[] = [];
const servers: FakeVenueHttp[] = [];
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
  for (const server of servers.splice(0)) await server.close();
});

const TIMEOUT_MS = 2_000;
const DURATION_SEC = 5;

/** Resolves once the venue lists an open order, polling it directly (not through the proxy). */
async function anOrderIsOpen(rig: LiveSessionRig): Promise<void> {
  for (;;) {
    const open = await rig.rest('GET', '/api/v1/trading/orders', {});
    if ((open.body.data as unknown[]).length > 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a live session whose venue stops answering before the stop', () => {
  it('ends within shutdown.timeoutMs and a bounded moment more, its result naming what was not settled', async () => {
    const rig = await newRig();
    const proxy = await startFreezableTcpProxy(Number(new URL(rig.venue.restUrl).port));
    proxies.push(proxy);
    let frozenAt: number | undefined;
    void anOrderIsOpen(rig).then(() => {
      proxy.freeze();
      frozenAt = Date.now();
    });
    const began = Date.now();
    const outcome = await rig.run({
      strategies: `  - { id: rest, use: ${JSON.stringify(REST_AND_TAKE)}, params: { sym: ${SESSION_SYM} } }`,
      durationSec: DURATION_SEC,
      viaPort: proxy.port,
      extra: `shutdown: { cancelAllOrders: true, timeoutMs: ${TIMEOUT_MS} }\n`,
    });
    const took = Date.now() - began;
    // The venue went silent while the session traded, before its stop.
    expect(frozenAt).toBeDefined();
    // Start-up, the session's run, the stop's deadline, and a generous margin for the rest (a
    // stop waiting on the frozen venue's statement and sockets in turn took a minute).
    expect(took).toBeLessThan(DURATION_SEC * 1000 + TIMEOUT_MS + 12_000);
    expect(outcome.exitCode).toBe(EXIT.ORDERS_LEFT_OPEN);
    const warnings = outcome.result.meta.warnings ?? [];
    // The cancels took the whole deadline: nothing else was waited for.
    expect(warnings[0]).toMatch(/^1 order may still be open on the venue: rest-/);
    expect(warnings).toContain(
      `The venue's trading statement could not be fetched (the stop's shutdown.timeoutMs of ${TIMEOUT_MS} ms ran out first): funding and interest paid are left out of this result (the equity figures include them).`,
    );
  }, 120_000);
});

describe('a live session whose start-up fails while the venue stops answering', () => {
  it('ends with the start-up’s error within shutdown.timeoutMs, not after the sockets’ 30 s close handshakes', async () => {
    const rig = await newRig();
    const proxy = await startFreezableTcpProxy(Number(new URL(rig.venue.restUrl).port));
    proxies.push(proxy);
    const symInfo = (await rig.rest('GET', '/api/v1/trading/sym/info', {})).body;
    // A REST side of its own: the first reconciliation's open orders are refused, and the venue's
    // sockets (through the proxy) go silent at that moment, logged in and subscribed.
    const rest = await startFakeVenueHttp(
      datedOn(
        () => Date.now(),
        (request) => {
          if (request.path === '/api/v1/trading/sym/info') return { body: symInfo };
          if (request.path === '/api/v1/trading/executions/pageable') return { body: ok(page([])) };
          if (request.path !== '/api/v1/trading/orders') return { body: ok(null) };
          proxy.freeze();
          return { body: { code: 400001, message: 'bad parameters' } };
        },
      ),
    );
    servers.push(rest);
    const failed = await rig
      .run({
        strategies: `  - { id: rest, use: ${JSON.stringify(REST_AND_TAKE)}, params: { sym: ${SESSION_SYM} } }`,
        durationSec: DURATION_SEC,
        viaPort: proxy.port,
        restUrl: rest.url,
        extra: `shutdown: { timeoutMs: ${TIMEOUT_MS} }\n`,
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(String(failed)).toMatch(/GET \/api\/v1\/trading\/orders failed with venue code 400001/);
    // A stop without a bound waited 30 s for the frozen sockets' close handshakes: this test's limit.
  }, 15_000);
});
