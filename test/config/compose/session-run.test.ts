import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import { aFreePort } from '../../kit/free-port.ts';
import { liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
const newRig = liveSessionRigs();

/** A venue's REST address that holds every request until released, then refuses it (a venue error, not retried). */
async function aHeldVenue(): Promise<{ url: string; held: () => number; release: () => Promise<void> }> {
  const waiting: ServerResponse<IncomingMessage>[] = [];
  const server = createServer((_req, res) => {
    waiting.push(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => waiting.length,
    async release() {
      for (const res of waiting.splice(0))
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ code: 10001, message: 'the venue is not ready' }));
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** A probe's status and body, or the error that stopped it. */
async function probe(port: number, path: '/healthz' | '/readyz'): Promise<string> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}${path}`);
    return `${response.status} ${await response.text()}`;
  } catch (error) {
    return `unreachable (${(error as Error).message})`;
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the probes of a live run before its session starts', () => {
  // The endpoint was served only once the venue had listed the instruments: a venue slow to answer
  // left a liveness probe unanswered, and its failure left no /readyz at all.
  it('answer while the venue is asked for its instruments, and /readyz names that step when it fails', async () => {
    const rig = await newRig();
    const venue = await aHeldVenue();
    const port = await aFreePort();
    let atClose: Promise<string> | undefined;
    const close = RunMetrics.prototype.close;
    vi.spyOn(RunMetrics.prototype, 'close').mockImplementation(async function (this: RunMetrics) {
      atClose ??= probe(port, '/readyz');
      await atClose;
      return close.call(this);
    });
    const run = rig.run({
      strategies: `  - { id: s, use: ${JSON.stringify(BUY_ONCE)}, params: { sym: ${SESSION_SYM}, qty: 0.01 } }`,
      durationSec: 120,
      restUrl: venue.url,
      extra: `metrics: { enabled: true, port: ${port} }\n`,
    });
    run.catch(() => {});
    for (let i = 0; i < 300 && venue.held() === 0; i++) await sleep(20);
    expect(venue.held()).toBe(1);
    expect(await probe(port, '/healthz')).toBe('200 ok\n');
    expect(await probe(port, '/readyz')).toMatch(/^503 not ready: /);
    await venue.release();
    await expect(run).rejects.toThrow('the venue is not ready');
    expect(await atClose).toMatch(
      /^503 not ready: the live session failed to start: cannot read its instruments from the venue at http:\/\/127\.0\.0\.1:\d+ \(.*the venue is not ready.*\)/,
    );
    expect(await probe(port, '/healthz')).toMatch(/^unreachable/);
  }, 60_000);
});
