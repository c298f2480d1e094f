import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { rejectionReason } from '../../../backtest/sim/sim-errors.ts';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import { UserDataAlerts } from '../../../config/compose/user-data-alerts.ts';
import { anOrder } from '../../kit/order-builders.ts';

/** Alerts writing to an array of parsed pino records. */
function alertsWithLog() {
  const log: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) log.push(JSON.parse(line));
      done();
    },
  });
  return { alerts: new UserDataAlerts(pino({ level: 'info' }, sink), new RunMetrics(() => 0)), log };
}

const WOULD_TAKE_MSG = 'venue rejected a post-only order (it would have taken liquidity)';

describe('the log line of a rejected post-only order', () => {
  it('is a warn with the venue message when the 400001 is another bad parameter, not "would have taken liquidity"', () => {
    const { alerts, log } = alertsWithLog();
    // The reason the sim gives a GTX quote sent with positionSide NONE in hedge mode (order-parameters.ts).
    const reason = rejectionReason('BAD_PARAMETERS', 'positionSide LONG or SHORT is required in BOTH mode');
    alerts.rejected(anOrder({ timeInForce: 'GTX', orderState: 'REJECTED', reason }), 'mm');
    expect(log[0]?.msg).not.toBe(WOULD_TAKE_MSG);
    expect(log[0]).toMatchObject({ level: 40, msg: 'venue rejected an order', code: '400001' });
    expect(log[0]?.message).toContain('positionSide');
  });

  it('is info "would have taken liquidity" for the refusal the sim and paper venue give a post-only order that would take', () => {
    const { alerts, log } = alertsWithLog();
    // order-entry.ts: reject(state, order, 'BAD_PARAMETERS', 'post-only (GTX) order would take liquidity').
    const reason = rejectionReason('BAD_PARAMETERS', 'post-only (GTX) order would take liquidity');
    alerts.rejected(anOrder({ timeInForce: 'GTX', orderState: 'REJECTED', reason }), 'mm');
    expect(log[0]).toMatchObject({ level: 30, msg: WOULD_TAKE_MSG, code: '400001' });
  });
});

describe('the log line of an order Keel ended as rejected itself (code keel)', () => {
  it('does not say the venue rejected it', () => {
    const { alerts, log } = alertsWithLog();
    const neverAcked =
      'no ack, and the venue still had no order with clientOrderId c-1 after 3 lookups over 30 s; not re-sent ' +
      '(synthesized by Keel: a later venue update of this order supersedes it)';
    alerts.rejected(anOrder({ orderState: 'REJECTED', reason: neverAcked, synthesized: true }), 'mm');
    alerts.rejected(anOrder({ orderState: 'REJECTED', reason: 'not connected' }), 'mm');
    expect(log.map((r) => [r.level, r.code, r.msg])).toEqual([
      [40, 'keel', 'order ended as rejected by Keel, not by the venue (not sent, or never acknowledged)'],
      [40, 'keel', 'order ended as rejected by Keel, not by the venue (not sent, or never acknowledged)'],
    ]);
    expect(log[0]?.message).toBe(neverAcked);
  });
});
