import { afterEach, describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../../backtest/paper-venue/index.ts';
import { intentLogFields } from '../../../../core/venue/live/intent-log-fields.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { capturedLog } from '../../../kit/captured-log.ts';
import { aRigBuy, eventually, type LivePaperRig, liveOnPaper, RIG_BTC } from '../../../kit/live-paper-rig.ts';
import { aPaperVenue, withFirstQuotes } from '../../../kit/paper-venue-builders.ts';
import { anAlgo } from '../../../kit/sim-builders.ts';

let venue: PaperVenue | undefined;
let rig: LivePaperRig | undefined;

afterEach(async () => {
  await rig?.live.stop();
  await rig?.rest.close();
  rig = undefined;
  await venue?.close();
  venue = undefined;
});

const cancel = (ref: string, target: string) => approved({ kind: 'cancelOrder', ref, target, sym: RIG_BTC });

describe('the log records of a command the venue refused or did not answer', () => {
  it('name the sym and the order of a refused command', async () => {
    const v = await withFirstQuotes(await aPaperVenue());
    venue = v;
    const { logger, records } = capturedLog('debug');
    const r = await liveOnPaper(v, { logger });
    rig = r;
    r.live.submit(cancel('c-1', 'no-such-order'));
    const refused = () => records.find((x) => x.msg === 'venue refused a command');
    await eventually(() => refused() !== undefined, 'the refusal logged');
    expect(refused()).toMatchObject({
      ref: 'c-1',
      kind: 'cancelOrder',
      sym: RIG_BTC,
      clientOrderId: 'no-such-order',
    });
  });

  // Every failed command was logged as one the venue refused, a cancel that timed out included.
  it('say a command got no answer, not that the venue refused it, when its outcome is unknown', async () => {
    const v = await withFirstQuotes(await aPaperVenue());
    venue = v;
    const { logger, records } = capturedLog('debug');
    const r = await liveOnPaper(v, { logger });
    rig = r;
    r.live.submit(aRigBuy('b-1', '95.0'));
    const open = () => r.events.some((e) => e.kind === 'order' && e.order.orderState === 'OPEN');
    await eventually(open, 'the order open');
    v.faults.withholdNextAck();
    r.live.submit(cancel('c-1', 'b-1'));
    const said = () => records.filter((x) => x.ref === 'c-1' && x.code !== undefined);
    await eventually(() => said().length > 0, 'the unanswered cancel logged', 5_000);
    expect(said()).toEqual([
      expect.objectContaining({
        msg: 'no answer from the venue to a command: it may have taken effect',
        code: -1,
        kind: 'cancelOrder',
        clientOrderId: 'b-1',
        level: 40,
      }),
    ]);
  });

  it('name the sym and the algo order of a command whose REST reply was lost', async () => {
    const v = await withFirstQuotes(await aPaperVenue());
    venue = v;
    const { logger, records } = capturedLog('debug');
    const r = await liveOnPaper(v, { logger }, 400);
    rig = r;
    await eventually(() => r.events.some((e) => e.kind === 'account'), 'first reconciliation');
    v.faults.loseNextRestReply({ path: '/api/v1/algo/order', method: 'POST' });
    r.live.submit(approved(anAlgo('alg-1')));
    const lost = () => records.find((x) => x.msg === 'REST reply lost: looking up');
    await eventually(() => lost() !== undefined, 'the lost reply logged', 5_000);
    expect(lost()).toMatchObject({
      ref: 'alg-1',
      kind: 'placeAlgoOrder',
      sym: RIG_BTC,
      clientAlgoOrderId: 'alg-1',
    });
  });

  it('name the sym and the order of a placed order whose ack never came', async () => {
    // Order entry takes 100 ms of venue time, which only moves when the feed is stepped: the ack times out.
    const v = await withFirstQuotes(
      await aPaperVenue({
        latency: { orderEntry: { fixedMs: 100, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
      }),
    );
    venue = v;
    const { logger, records } = capturedLog('debug');
    const r = await liveOnPaper(v, { logger });
    rig = r;
    await eventually(() => r.events.some((e) => e.kind === 'account'), 'first reconciliation');
    r.live.submit(aRigBuy('late-1', '95.0'));
    const noAck = () => records.find((x) => x.msg === 'no usable ack for a placed order: looking it up');
    await eventually(() => noAck() !== undefined, 'the missing ack logged', 5_000);
    expect(noAck()).toMatchObject({ clientOrderId: 'late-1', sym: RIG_BTC });
    v.feed.step(1);
  });

  it('name what each kind of command acts on', () => {
    expect(intentLogFields({ kind: 'cancelOrders', ref: 'r', sym: RIG_BTC, targets: ['a', 'b'] })).toEqual({
      ref: 'r',
      kind: 'cancelOrders',
      sym: RIG_BTC,
      clientOrderIds: ['a', 'b'],
    });
    expect(intentLogFields({ kind: 'cancelAlgoOrder', ref: 'r', target: 'alg', sym: RIG_BTC })).toMatchObject(
      {
        clientAlgoOrderId: 'alg',
        sym: RIG_BTC,
      },
    );
    expect(intentLogFields({ kind: 'closePositions', ref: 'r', symList: [RIG_BTC] })).toMatchObject({
      syms: [RIG_BTC],
    });
  });
});
