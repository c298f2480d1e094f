import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveSessionRigs } from '../../kit/live-session-rig.ts';

const BORROW_ONCE = resolve('test/config/fixtures/borrow-once-plugin.ts');
// The venue lends nothing: it refuses the borrow.
const newRig = liveSessionRigs();

/** A port nothing listens on now. */
async function aFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the denials metric of a live session', () => {
  it("counts a command the venue refused by its code, as the session's denials list it", async () => {
    const rig = await newRig();
    const port = await aFreePort();
    const run = rig.run({
      strategies: `  - { id: b, use: ${JSON.stringify(BORROW_ONCE)}, params: { exchange: BINANCE, coin: USDT, amount: '100' } }`,
      durationSec: 3,
      extra: `metrics: { enabled: true, port: ${port} }\n`,
    });
    let ended = false;
    void run.finally(() => (ended = true));
    // Scraped while the session runs (it closes the endpoint when it ends).
    const scraped: string[] = [];
    while (!ended) {
      const text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
        (reply) => reply.text(),
        () => '',
      );
      scraped.push(...text.split('\n').filter((line) => line.startsWith('keel_denials_total{')));
      await new Promise((r) => setTimeout(r, 100));
    }
    const outcome = await run;
    const checks = [...(outcome.result.denials ?? [])].map((d) => d.check);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatch(/^venue\.\d+$/);
    expect(scraped).toContain(`keel_denials_total{check="${checks[0]}"} 1`);
  }, 30_000);
});
