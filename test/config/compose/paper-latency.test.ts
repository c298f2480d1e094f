import { describe, expect, it, vi } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { sessionResult } from '../../../config/compose/session-result.ts';
import { embeddedPaperVenues, lockstepPaperConfig } from '../../kit/embedded-paper-runs.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';
import { aSessionRecord } from '../../kit/session-records.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

const start = embeddedPaperVenues();

async function embedded(text: string): Promise<PaperVenue> {
  return (await start(text)).venue;
}

const bid = {
  sym: BTC,
  side: 'BUY',
  orderType: 'LIMIT',
  orderQty: '0.01',
  limitPrice: '1000',
  clientOrderId: 'b1',
};

describe('a paper run with paper.latency', () => {
  it('passes the latency to the embedded paper venue: an order waits on its way to the matching engine', async () => {
    const v = await embedded(lockstepPaperConfig('  latency: { fixedMs: 200, seed: 3 }\n'));
    let replied = false;
    void signedRest(v, 'POST', '/api/v1/trading/order', bid)
      .then(() => {
        replied = true;
      })
      .catch(() => undefined);
    await vi.waitFor(() => expect(v.inFlight()).toBe(1));
    expect(replied).toBe(false);
  });

  it('without paper.latency the venue runs the order at once', async () => {
    const v = await embedded(lockstepPaperConfig());
    const reply = await signedRest(v, 'POST', '/api/v1/trading/order', bid);
    expect(reply.body.code).toBe(0);
    expect(v.inFlight()).toBe(0);
  });
});

describe("a session result's latency model", () => {
  it('states the configured latency of a paper run', () => {
    const legs = {
      orderEntry: { fixedMs: 200, jitterMs: 50 },
      marketData: { fixedMs: 0, jitterMs: 0 },
      userData: { fixedMs: 30, jitterMs: 0 },
    };
    const meta = sessionResult(aSessionRecord({ latency: { legs, seed: 7 } })).meta;
    expect(meta.latencyModel.name).toBe('configured');
    expect(meta.latencyModel.description).toContain('order entry 200 ms + U[0,50) ms');
    expect(meta.latencyModel.description).toContain('user data 30 ms');
    expect(meta.latencyModel.description).toContain('seed 7');
  });

  it('says a paper run without one added none, and a live run had the network’s', () => {
    expect(sessionResult(aSessionRecord({})).meta.latencyModel).toMatchObject({ name: 'loopback' });
    expect(sessionResult(aSessionRecord({})).meta.latencyModel.description).toContain('added no latency');
    expect(sessionResult(aSessionRecord({ mode: 'live' })).meta.latencyModel.name).toBe('network');
  });
});
