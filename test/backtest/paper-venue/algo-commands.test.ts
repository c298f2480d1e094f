import { describe, expect, it } from 'vitest';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ALGO_ORDER = '/api/v1/algo/order';
const opened = closedAfterEachTest();

function anAlgo(clientAlgoOrderId: string): Record<string, unknown> {
  return {
    sym: BTC,
    side: 'SELL',
    algoOrderType: 'TRIGGER',
    conditionType: 'LTE',
    triggerPrice: '90',
    price: '0',
    qty: '1',
    clientAlgoOrderId,
  };
}

describe('naming the algo order a query, replace or cancel acts on', () => {
  it("refuses with 401018 an algoOrderId and a clientAlgoOrderId of two algo orders, an unknown algoOrderId, or a sym not the order's, changing nothing", async () => {
    opened.venue = await aPaperVenue();
    const venue = await withFirstQuotes(opened.venue);
    const ids: string[] = [];
    for (const ref of ['al1', 'al2']) {
      const placed = await signedRest(venue, 'POST', ALGO_ORDER, anAlgo(ref));
      expect(placed.body.code).toBe(0);
      ids.push((placed.body.data as { algoOrderId: string }).algoOrderId);
    }
    const misnamed = [
      [
        { algoOrderId: ids[0], clientAlgoOrderId: 'al2' },
        `no algo order ${ids[0]} with clientAlgoOrderId al2`,
      ],
      [{ algoOrderId: 'no-such-id', clientAlgoOrderId: 'al1' }, 'no algo order no-such-id'],
      [{ clientAlgoOrderId: 'al1', sym: 'OKX_SPOT_ETH_USDT' }, 'no algo order al1 on OKX_SPOT_ETH_USDT'],
    ] as const;
    for (const [names, words] of misnamed) {
      const expected = { code: 401018, message: `order not found: ${words}`, data: null };
      expect((await signedRest(venue, 'GET', ALGO_ORDER, names)).body).toMatchObject(expected);
      const replace = await signedRest(venue, 'PUT', ALGO_ORDER, { ...names, triggerPrice: '80' });
      expect(replace.body).toMatchObject(expected);
      expect((await signedRest(venue, 'DELETE', ALGO_ORDER, names)).body).toMatchObject(expected);
    }
    for (const clientAlgoOrderId of ['al1', 'al2']) {
      const algo = await signedRest(venue, 'GET', ALGO_ORDER, { clientAlgoOrderId, sym: BTC });
      expect(algo.body.data).toMatchObject({ clientAlgoOrderId, triggerPrice: '90', algoOrderState: 'NEW' });
    }
    const both = await signedRest(venue, 'GET', ALGO_ORDER, {
      algoOrderId: ids[1],
      clientAlgoOrderId: 'al2',
    });
    expect(both.body.data).toMatchObject({ algoOrderId: ids[1], clientAlgoOrderId: 'al2' });
  });
});
