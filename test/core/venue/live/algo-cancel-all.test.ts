import { afterEach, describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../../backtest/paper-venue/index.ts';
import { SYNTHETIC_AAPL } from '../../../../backtest/synthetic/index.ts';
import { D, type Intent, type UserEvent } from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { eventually, type LivePaperRig, liveOnPaper, RIG_BTC } from '../../../kit/live-paper-rig.ts';
import { aPaperVenue, withFirstQuotes } from '../../../kit/paper-venue-builders.ts';
import { signedRest } from '../../../kit/paper-venue-client.ts';

let venue: PaperVenue | undefined;
let rig: LivePaperRig | undefined;

afterEach(async () => {
  await rig?.live.stop();
  await rig?.rest.close();
  rig = undefined;
  await venue?.close();
  venue = undefined;
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
});
