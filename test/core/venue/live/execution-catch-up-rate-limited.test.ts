import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import {
  liveClientOnScriptedVenue,
  type ScriptedVenueClient,
} from '../../../kit/live-client-on-scripted-venue.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { WIRE_EXECUTION, WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

/**
 * An order fills while the socket is down. After the reconnect the venue rate-limits the
 * execution catch-up (HTTP 429, Retry-After: 2) four times in a row (the first try and Keel's 3
 * retries of a GET), then answers. LiveExecutionClient's doc promises "Fills
 * made while the socket was down are fetched after the reconnect and reported once each, before
 * the order states that depend on them". A correct client reports the fill (once) before FILLED.
 */
describe('timing: 429 with Retry-After on the execution catch-up after a reconnect', () => {
  let h: ScriptedVenueClient;
  afterEach(async () => h?.stop());

  it('holds the FILLED order back until a retry fetched its missed fill, and reports the fill first', async () => {
    // Keel's default REST retry policy (3 retries of a GET, each after the Retry-After hold).
    h = await liveClientOnScriptedVenue({}, { defaultRestRetry: true });
    const seq = () =>
      h.events.flatMap((e) =>
        e.kind === 'order' && e.order.clientOrderId === 'c-f'
          ? [`order ${e.order.orderState}`]
          : e.kind === 'execution'
            ? [`fill ${e.execution.transactionId}`]
            : [],
      );
    h.live.submit(approved(aLimitOrder({ ref: 'c-f' })));
    await waitFor(() => seq().length === 1, 'the ack');
    const ack = h.events.find((e) => e.kind === 'order') as { order: Order };

    h.ws.dropAll();
    h.state.ordersByRef.set('c-f', {
      ...WIRE_ORDER,
      orderId: ack.order.orderId,
      clientOrderId: 'c-f',
      orderQty: '1',
      limitPrice: '100',
      orderState: 'FILLED',
      executedQty: '1',
      updateAt: 1_700_000_000_300,
    });
    h.state.executions = [
      {
        ...WIRE_EXECUTION,
        transactionId: 't-f',
        orderId: ack.order.orderId,
        clientOrderId: 'c-f',
        quantity: '1',
        price: '100',
        timestamp: 1_700_000_000_300,
      },
    ];
    let limited = 0;
    h.state.extra = (r) => {
      if (r.path === '/api/v1/trading/executions/pageable' && h.ws.logins >= 2 && limited < 4) {
        limited++;
        return {
          status: 429,
          body: { code: 429, message: 'too many requests' },
          headers: { 'retry-after': '2' },
        };
      }
      return undefined;
    };
    await advanceUntil(h.timer, () => h.ws.logins === 2, 'second login');
    await advanceUntil(
      h.timer,
      () => seq().includes('fill t-f') && seq().includes('order FILLED'),
      'fill and FILLED',
      200,
      200,
    );
    expect(limited).toBe(4);
    expect(seq().filter((s) => s === 'fill t-f')).toHaveLength(1);
    expect(seq().indexOf('fill t-f')).toBeLessThan(seq().indexOf('order FILLED'));
  });
});
