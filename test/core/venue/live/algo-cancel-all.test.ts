import { afterEach, describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../../backtest/paper-venue/index.ts';
import { SYNTHETIC_AAPL } from '../../../../backtest/synthetic/index.ts';
import { D, type Intent, type UserEvent } from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { type LiveClientOnFakeVenue, liveClientOnFakeVenue } from '../../../kit/live-client-on-fake-venue.ts';
import { eventually, type LivePaperRig, liveOnPaper, RIG_BTC } from '../../../kit/live-paper-rig.ts';
import { aPaperVenue, withFirstQuotes } from '../../../kit/paper-venue-builders.ts';
import { signedRest } from '../../../kit/paper-venue-client.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { ok, WIRE_ALGO_ORDER } from '../../../kit/venue-wire-samples.ts';

let venue: PaperVenue | undefined;
let rig: LivePaperRig | undefined;
let fake: LiveClientOnFakeVenue | undefined;

afterEach(async () => {
  await rig?.live.stop();
  await rig?.rest.close();
  rig = undefined;
  await venue?.close();
  venue = undefined;
  await fake?.close();
  fake = undefined;
});

const stopAlgo = (ref: string, sym: string, triggerPrice: string): Intent => ({
  kind: 'placeAlgoOrder',
  ref,
  sym,
  side: 'SELL',
  algoOrderType: 'TRIGGER',
  conditionType: 'LTE',
  triggerType: 'LastPrice',
  triggerPrice: D(triggerPrice),
  price: D('0'),
  qty: D('1'),
  reduceOnly: false,
  positionSide: 'NONE',
});

/** The latest state the client reported of each algo order, by clientAlgoOrderId. */
const algoStates = (events: readonly UserEvent[]): Record<string, string> => {
  const states: Record<string, string> = {};
  for (const e of events)
    if (e.kind === 'algoOrder') states[e.algoOrder.clientAlgoOrderId] = e.algoOrder.state;
  return states;
};

describe('live execution client: a cancel of all algo orders', () => {
  it("reports each algo order it ended, as the venue shows it, since the venue's reply names none", async () => {
    const v = await withFirstQuotes(await aPaperVenue());
    venue = v;
    const r = await liveOnPaper(v);
    rig = r;
    r.live.submit(approved(stopAlgo('btc-1', RIG_BTC, '90')));
    r.live.submit(approved(stopAlgo('btc-2', RIG_BTC, '80')));
    r.live.submit(approved(stopAlgo('aapl-1', SYNTHETIC_AAPL.sym, '150')));
    await eventually(() => Object.keys(algoStates(r.events)).length === 3, 'the three algo orders');
    // One the client never reported (a leg, or one placed by hand) is open on the venue too.
    const byHand = await signedRest(v, 'POST', '/api/v1/algo/order', {
      sym: RIG_BTC,
      clientAlgoOrderId: 'by-hand',
      side: 'SELL',
      algoOrderType: 'TP_SL',
      conditionType: 'LTE',
      triggerPrice: '70',
      price: '0',
      qty: '1',
    });
    expect(byHand.body).toMatchObject({ code: 0 });
    r.live.submit(approved({ kind: 'cancelAllAlgoOrders', ref: 'x-all', sym: RIG_BTC }));
    await eventually(
      () => Object.values(algoStates(r.events)).filter((s) => s === 'CANCELLED').length === 3,
      'the cancelled algo orders',
    );
    expect(algoStates(r.events)).toEqual({
      'btc-1': 'CANCELLED',
      'btc-2': 'CANCELLED',
      'aapl-1': 'NEW',
      'by-hand': 'CANCELLED',
    });
    expect(r.events.filter((e) => e.kind === 'commandRejected')).toEqual([]);
  });

  it('still cancels, and reads back the algo orders the client reported open, when the list before it fails', async () => {
    const algo = { ...WIRE_ALGO_ORDER, algoOrderId: 'a-1', clientAlgoOrderId: 'ca-1' };
    const f = await liveClientOnFakeVenue({}, (request) =>
      request.path === '/api/v1/algo/openOrders' ? { body: ok([algo]) } : undefined,
    );
    fake = f;
    f.special = (request) => {
      if (request.path === '/api/v1/algo/openOrders') return { status: 503, body: 'unavailable' };
      if (request.path === '/api/v1/algo/order')
        return { body: ok({ ...algo, algoOrderState: 'CANCELLED', updateAt: 1_700_000_000_900 }) };
      return undefined;
    };
    const from = f.events.length;
    f.live.submit(approved({ kind: 'cancelAllAlgoOrders', ref: 'x-all' }));
    await waitFor(() => f.events.slice(from).some((e) => e.kind === 'algoOrder'), 'the cancelled algo order');
    expect(f.calls('/api/v1/algo/cancelAll')).toHaveLength(1);
    expect(f.calls('/api/v1/algo/order').map((r) => r.query.algoOrderId)).toEqual(['a-1']);
    expect(algoStates(f.events.slice(from))).toEqual({ 'ca-1': 'CANCELLED' });
    expect(f.events.filter((e) => e.kind === 'commandRejected')).toEqual([]);
  });
});

/**
 * The read-back after the cancel answered a state Keel does not know (an exchange's FINISHED):
 * mapped to NEW, the algo order was not reported at all and stayed open in Keel, holding its
 * strategy's open-algo slot, until a reconciliation; the algo order lookup takes such a state as
 * not open (algo-order-lookup.ts), and so does the cancel's read-back now.
 */
describe('live execution client: a cancel of all algo orders whose read-back shows a state Keel does not know', () => {
  it('reports the algo order ended (CANCELLED), not left open', async () => {
    const algo = { ...WIRE_ALGO_ORDER, algoOrderId: 'a-1', clientAlgoOrderId: 'ca-1' };
    const f = await liveClientOnFakeVenue({}, (request) =>
      request.path === '/api/v1/algo/openOrders' ? { body: ok([algo]) } : undefined,
    );
    fake = f;
    f.special = (request) => {
      if (request.path === '/api/v1/algo/openOrders') return { body: ok([algo]) };
      if (request.path === '/api/v1/algo/order')
        return { body: ok({ ...algo, algoOrderState: 'FINISHED', updateAt: 1_700_000_000_900 }) };
      return undefined;
    };
    const from = f.events.length;
    f.live.submit(approved({ kind: 'cancelAllAlgoOrders', ref: 'x-all' }));
    await waitFor(() => f.calls('/api/v1/algo/order').length === 1, 'the read-back');
    await waitFor(() => f.events.slice(from).some((e) => e.kind === 'algoOrder'), 'the ended algo order');
    expect(algoStates(f.events.slice(from))).toEqual({ 'ca-1': 'CANCELLED' });
    expect(f.events.filter((e) => e.kind === 'commandRejected')).toEqual([]);
  });
});
