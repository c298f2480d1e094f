import { describe, expect, it } from 'vitest';
import { D } from '../../core/model/index.ts';
import { marketMaker } from '../../strategies/index.ts';
import { aRecordingKernelRig } from '../kit/kernel-builders.ts';
import { anOrderUpdate, BTC } from '../kit/kernel-events.ts';
import { anOrder } from '../kit/order-builders.ts';
import { aQuote } from '../kit/sim-builders.ts';

const params = { sym: BTC, qty: 0.1, halfSpreadTicks: 2, skewTicksPerUnit: 0, maxPosition: 0.2 };

/** A quote the earlier run `tow6r1fr` of strategy mm left on the venue. */
const leftOver = (n: number, side: 'BUY' | 'SELL', price: string) =>
  anOrder({
    orderId: `v${n}`,
    clientOrderId: `mm-tow6r1fr-${n}`,
    sym: BTC,
    side,
    orderQty: D('0.1'),
    limitPrice: D(price),
    timeInForce: 'GTX',
  });

describe('market-maker strategy, restarted', () => {
  it("takes back its earlier run's quotes, one per side, cancels a surplus one, and moves them instead of quoting again", async () => {
    let reconciled: () => void = () => undefined;
    const rig = aRecordingKernelRig([{ id: 'mm', strategy: marketMaker, params }], {
      runId: 'tow6ub4z',
      strategiesAfter: new Promise<void>((resolve) => {
        reconciled = resolve;
      }),
    });
    for (const order of [
      leftOver(1, 'BUY', '99.5'),
      leftOver(2, 'SELL', '100.6'),
      leftOver(3, 'BUY', '99.4'),
    ])
      rig.port.emit(anOrderUpdate(order, 1));
    reconciled();
    await new Promise((resolve) => setImmediate(resolve));
    rig.market.next(aQuote(1000, 100, 5, 100.2, 5)); // mid 100.1: wanted 99.9 / 100.3
    const sent = rig.port.submitted.map((c) => {
      const i = c.intent;
      return i.kind === 'modifyOrder'
        ? `modify ${i.target} ${i.price?.toFixed(1)}`
        : `${i.kind} ${'target' in i ? i.target : ''}`;
    });
    expect(sent).toEqual([
      'cancelOrder mm-tow6r1fr-3',
      'modify mm-tow6r1fr-1 99.9',
      'modify mm-tow6r1fr-2 100.3',
    ]);
    expect(rig.denials).toEqual([]);
    expect(rig.faults).toEqual([]);
  });
});
