import { afterEach, describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { hmacSigner, VenueError, VenueRestClient, VenueTimeoutError } from '../../../core/venue/index.ts';
import { aPaperVenue } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ORDER_PATH = '/api/v1/trading/order';
let venue: PaperVenue | undefined;
let rest: VenueRestClient | undefined;

afterEach(async () => {
  await rest?.close();
  rest = undefined;
  await venue?.close();
  venue = undefined;
});

const order = (ref: string) => ({
  sym: BTC,
  side: 'BUY',
  orderType: 'LIMIT',
  orderQty: '1',
  limitPrice: '90.0',
  clientOrderId: ref,
});

async function orderOnVenue(v: PaperVenue, ref: string): Promise<{ code: number; state: unknown }> {
  const reply = await signedRest(v, 'GET', ORDER_PATH, { clientOrderId: ref });
  const data = reply.body.data as { orderState?: unknown } | null;
  return { code: reply.body.code, state: data?.orderState };
}

describe('paper venue: a REST reply lost after the venue acted', () => {
  it('places the order but never answers the request that placed it', async () => {
    const v = await aPaperVenue();
    venue = v;
    v.faults.loseNextRestReply({ path: ORDER_PATH, method: 'POST' });
    let outcome = 'pending';
    void signedRest(v, 'POST', ORDER_PATH, order('lost-1')).then(
      () => {
        outcome = 'answered';
      },
      () => {
        outcome = 'failed';
      },
    );
    // The order reaches the engine after the order-entry latency: ask until it is there.
    let held = await orderOnVenue(v, 'lost-1');
    for (let i = 0; i < 200 && held.code !== 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      held = await orderOnVenue(v, 'lost-1');
    }
    expect(held.code).toBe(0);
    expect(held.state).toMatch(/NEW|OPEN/);
    // The venue answered later lookups on the same path (GET): the lost POST is still unanswered.
    expect(outcome).toBe('pending');
    expect(v.faults.takeRestFault(ORDER_PATH, 'POST')).toBeUndefined();
  });

  it('with close, the client sees a network error while the venue holds the order', async () => {
    const v = await aPaperVenue();
    venue = v;
    v.faults.loseNextRestReply({ path: ORDER_PATH, close: true });
    await expect(signedRest(v, 'POST', ORDER_PATH, order('lost-2'))).rejects.toThrow();
    expect((await orderOnVenue(v, 'lost-2')).code).toBe(0);
  });

  it("leaves Keel's REST client with a timeout, or a network error on close, and the orders placed", async () => {
    const v = await aPaperVenue();
    venue = v;
    rest = new VenueRestClient({
      baseUrl: v.restUrl,
      signer: hmacSigner(v.apiKey, v.apiSecret),
      timeoutMs: 400,
    });
    v.faults.failNextRest({ kind: 'lostReply', path: ORDER_PATH });
    await expect(
      rest.placeOrder({ ...order('lost-3'), orderType: 'LIMIT', side: 'BUY' }),
    ).rejects.toBeInstanceOf(VenueTimeoutError);
    v.faults.loseNextRestReply({ close: true });
    const closed = await rest.placeOrder({ ...order('lost-4'), orderType: 'LIMIT', side: 'BUY' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(closed).toBeInstanceOf(VenueError);
    expect((closed as VenueError).code).toBe(0);
    const held = await rest.getOpenOrders({ sym: BTC });
    expect(held.map((o) => o.clientOrderId).sort()).toEqual(['lost-3', 'lost-4']);
  });

  it('loses only the reply of the request to its path and method; others are answered and run once', async () => {
    const v = await aPaperVenue();
    venue = v;
    v.faults.loseNextRestReply({ path: ORDER_PATH, method: 'POST', close: true });
    expect((await signedRest(v, 'GET', '/api/v1/system/status')).status).toBe(200);
    // A lookup on the same path with another method is answered and leaves the fault armed.
    expect((await signedRest(v, 'GET', ORDER_PATH, { clientOrderId: 'lost-5' })).body.code).not.toBe(0);
    await expect(signedRest(v, 'POST', ORDER_PATH, order('lost-5'))).rejects.toThrow();
    const next = await signedRest(v, 'POST', ORDER_PATH, order('kept-6'));
    expect(next.body.code).toBe(0);
    const open = await signedRest(v, 'GET', '/api/v1/trading/orders', { sym: BTC });
    const refs = (open.body.data as { clientOrderId: string }[]).map((o) => o.clientOrderId).sort();
    expect(refs).toEqual(['kept-6', 'lost-5']);
  });
});
