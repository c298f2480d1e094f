import { afterEach, describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../../backtest/paper-venue/index.ts';
import {
  COMMAND_NOT_APPLIED,
  COMMAND_OUTCOME_UNKNOWN,
  D,
  type Intent,
  type UserEvent,
} from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { aRigBuy, eventually, type LivePaperRig, liveOnPaper, RIG_BTC } from '../../../kit/live-paper-rig.ts';
import { aPaperVenue, withFirstQuotes } from '../../../kit/paper-venue-builders.ts';
import { signedRest } from '../../../kit/paper-venue-client.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';

let venue: PaperVenue | undefined;
let rig: LivePaperRig | undefined;

afterEach(async () => {
  await rig?.live.stop();
  await rig?.rest.close();
  rig = undefined;
  await venue?.close();
  venue = undefined;
});

/**
 * A paper venue and a live client whose REST replies time out after 300 ms; lookups 50 ms apart.
 * @param attempts - lookups of a lost reply (default the client's)
 */
async function started(attempts?: number): Promise<{ v: PaperVenue; r: LivePaperRig }> {
  const v = await withFirstQuotes(await aPaperVenue());
  venue = v;
  const lostReplyLookups = attempts === undefined ? { spacingMs: 50 } : { spacingMs: 50, attempts };
  const r = await liveOnPaper(v, { lostReplyLookups }, 300);
  rig = r;
  await eventually(() => r.events.some((e) => e.kind === 'account'), 'first reconciliation');
  r.events.length = 0;
  return { v, r };
}

const stopAlgo = (ref: string, sym = RIG_BTC): Intent => ({
  kind: 'placeAlgoOrder',
  ref,
  sym,
  side: 'SELL',
  algoOrderType: 'TRIGGER',
  conditionType: 'LTE',
  triggerType: 'LastPrice',
  triggerPrice: D('90'),
  price: D('0'),
  qty: D('1'),
  reduceOnly: false,
  positionSide: 'NONE',
});

/** Lets the REST timeout (300 ms, undici checks it about once a second) pass, and the lookups after it run. */
const pastTheTimeout = () => new Promise((resolve) => setTimeout(resolve, 2_500));

const rejections = (events: UserEvent[]) => events.filter((e) => e.kind === 'commandRejected');
const venueData = async (v: PaperVenue, path: string, params: Record<string, unknown> = {}) =>
  (await signedRest(v, 'GET', path, params)).body.data as never;

describe('live execution client: REST commands whose reply is lost', () => {
  it('finds an algo order whose placement reply timed out, reports it NEW, and never re-sends it', async () => {
    const { v, r } = await started();
    v.faults.loseNextRestReply({ path: '/api/v1/algo/order', method: 'POST' });
    r.live.submit(approved(stopAlgo('algo-1')));
    await eventually(() => r.events.some((e) => e.kind === 'algoOrder'), 'the algo order');
    expect(r.events.find((e) => e.kind === 'algoOrder')).toMatchObject({
      algoOrder: { clientAlgoOrderId: 'algo-1', state: 'NEW' },
    });
    expect(rejections(r.events)).toEqual([]);
    expect(await venueData(v, '/api/v1/algo/openOrders')).toHaveLength(1);
  });

  it('finds a borrow whose connection failed after the venue lent, and reports the loan', async () => {
    const { v, r } = await started();
    v.faults.loseNextRestReply({ path: '/api/v1/trading/marginLoan/loan/borrow', close: true });
    r.live.submit(
      approved({ kind: 'borrow', ref: 'borrow-1', exchange: 'BINANCE', coin: 'USDT', amount: D('1000') }),
    );
    await eventually(() => r.events.some((e) => e.kind === 'loan'), 'the loan');
    expect(r.events.find((e) => e.kind === 'loan')).toMatchObject({ loan: { coin: 'USDT' } });
    const loan = r.events.find((e) => e.kind === 'loan' && e.loan.principal.eq(1000));
    const terms: { coin: string; annualInterestRate: string }[] = await venueData(
      v,
      '/api/v1/trading/marginLoan/loan/config',
    );
    const rate = terms.find((t) => t.coin === 'USDT')?.annualInterestRate;
    expect(rate).toBeDefined();
    expect(loan).toMatchObject({ loan: { annualRate: D(rate ?? 'NaN') } });
    expect(rejections(r.events)).toEqual([]);
    const orders: { list: unknown[] } = await venueData(v, '/api/v1/trading/marginLoan/loan/orders');
    expect(orders.list).toHaveLength(1);
  });

  it('reports the cancel of an algo order whose reply was lost as the venue shows it: CANCELLED', async () => {
    const { v, r } = await started();
    r.live.submit(approved(stopAlgo('algo-2')));
    await eventually(() => r.events.some((e) => e.kind === 'algoOrder'), 'the algo order');
    v.faults.loseNextRestReply({ path: '/api/v1/algo/order', method: 'DELETE' });
    r.live.submit(approved({ kind: 'cancelAlgoOrder', ref: 'x-1', target: 'algo-2', sym: RIG_BTC }));
    await eventually(
      () => r.events.some((e) => e.kind === 'algoOrder' && e.algoOrder.state === 'CANCELLED'),
      'the cancelled algo order',
    );
    expect(rejections(r.events)).toEqual([]);
  });

  it('reports the position mode the account shows after a lost setPositionMode reply', async () => {
    const { v, r } = await started();
    v.faults.loseNextRestReply({ path: '/api/v1/trading/account', method: 'POST' });
    r.live.submit(approved({ kind: 'setPositionMode', ref: 'pm-1', positionMode: 'BOTH' }));
    await eventually(
      () => r.events.some((e) => e.kind === 'account' && e.account.positionMode === 'BOTH'),
      'the account in BOTH mode',
    );
    await pastTheTimeout();
    expect(rejections(r.events)).toEqual([]);
  });

  it('reports the flat position after a close whose reply was lost', async () => {
    const { v, r } = await started();
    r.live.submit(aRigBuy('long-1', '99.0'));
    await eventually(() => r.events.some((e) => e.kind === 'order' && e.order.orderState === 'OPEN'), 'bid');
    v.feed.step(1);
    await v.feed.until(3);
    await eventually(() => r.events.some((e) => e.kind === 'execution'), 'the fill');
    v.faults.loseNextRestReply({ path: '/api/v1/trading/position', method: 'DELETE' });
    r.live.submit(approved({ kind: 'closePosition', ref: 'close-1', sym: RIG_BTC, positionSide: 'NONE' }));
    await eventually(
      () => r.events.some((e) => e.kind === 'position' && e.position.positionQty.isZero()),
      'the flat position',
    );
    await pastTheTimeout();
    expect(rejections(r.events)).toEqual([]);
  });

  it('tells the strategy a command whose reply was lost did not take effect when the venue never ran it', async () => {
    const { v, r } = await started();
    v.faults.failNextRest({ kind: 'timeout', path: '/api/v1/algo/order', method: 'POST' });
    r.live.submit(approved(stopAlgo('algo-3')));
    await eventually(() => rejections(r.events).length === 1, 'the verdict');
    expect(rejections(r.events)[0]).toMatchObject({
      ref: 'algo-3',
      intentKind: 'placeAlgoOrder',
      code: COMMAND_NOT_APPLIED,
    });
    const message = (rejections(r.events)[0] as { message: string }).message;
    expect(message).toMatch(/the venue has no algo order algo-3, so it did not take effect \(not re-sent\)/);
    expect(await venueData(v, '/api/v1/algo/openOrders')).toHaveLength(0);
  });

  it('tells the strategy a command the venue ran and refused, whose reply was lost, did not take effect (code -2)', async () => {
    const { v, r } = await started();
    v.faults.loseNextRestReply({ path: '/api/v1/algo/order', method: 'POST' });
    r.live.submit(approved(stopAlgo('algo-4', 'BINANCE_PERP_NOPE_USDT')));
    await eventually(() => rejections(r.events).length === 1, 'the verdict');
    expect(rejections(r.events)[0]).toMatchObject({ ref: 'algo-4', code: COMMAND_NOT_APPLIED });
    expect(await venueData(v, '/api/v1/algo/openOrders')).toHaveLength(0);
  });

  it('calls the outcome unknown (code -1), not "did not take effect", when the lookups of a lost reply fail', async () => {
    const { v, r } = await started(1);
    v.faults.loseNextRestReply({ path: '/api/v1/algo/order', method: 'POST' });
    // The one lookup and every retry of it get a 503.
    for (let i = 0; i < 4; i++)
      v.faults.failNextRest({ kind: 'status', path: '/api/v1/algo/order', method: 'GET' });
    r.live.submit(approved(stopAlgo('algo-5')));
    await eventually(() => rejections(r.events).length === 1, 'the verdict', 10_000);
    expect(rejections(r.events)[0]).toMatchObject({ ref: 'algo-5', code: COMMAND_OUTCOME_UNKNOWN });
    expect((rejections(r.events)[0] as { message: string }).message).toMatch(/its outcome is unknown/);
    // It did run: a strategy that sent it again blindly would hold two.
    expect(await venueData(v, '/api/v1/algo/openOrders')).toHaveLength(1);
  });

  it('still reports a real venue refusal with its code, without a lookup', async () => {
    const { r } = await started();
    r.live.submit(
      approved({ kind: 'borrow', ref: 'b-big', exchange: 'BINANCE', coin: 'USDT', amount: D('1e9') }),
    );
    await eventually(() => rejections(r.events).length === 1, 'the refusal');
    const code = (rejections(r.events)[0] as { code: number }).code;
    expect(code).toBeGreaterThan(0);
    expect(r.events.filter((e) => e.kind === 'loan')).toEqual([]);
  });

  it('leaves no timer running once stopped while it waits to look a lost reply up again', async () => {
    const v = await withFirstQuotes(await aPaperVenue());
    venue = v;
    // The client's own timers on a fake clock that never moves: the wait after the first lookup stays pending.
    const timer = fakeTimer(Date.now());
    const r = await liveOnPaper(v, { timer, lostReplyLookups: { spacingMs: 500 } }, 300);
    rig = r;
    await eventually(() => r.events.some((e) => e.kind === 'account'), 'first reconciliation');
    const before = timer.pending();
    v.faults.failNextRest({ kind: 'timeout', path: '/api/v1/algo/order', method: 'POST' });
    r.live.submit(approved(stopAlgo('algo-6')));
    await eventually(() => timer.pending() > before, 'the wait before the second lookup');
    await r.live.stop();
    // A timer left running would hold the process up to 3.5 s after the session ended, for a
    // verdict the stopped client no longer reports.
    expect(timer.pending()).toBe(0);
  });
});
