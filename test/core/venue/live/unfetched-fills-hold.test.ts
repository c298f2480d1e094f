import { afterEach, describe, expect, it } from 'vitest';
import { filledWhileDown, sequenceOf } from '../../../kit/filled-while-down.ts';
import {
  liveClientOnScriptedVenue,
  type ScriptedVenueClient,
} from '../../../kit/live-client-on-scripted-venue.ts';
import { advanceUntil } from '../../../kit/venue-wait.ts';
import { WIRE_EXECUTION, WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

const PAGEABLE = '/api/v1/trading/executions/pageable';

/**
 * An order fills while the socket is down (see {@link filledWhileDown}); with `bad`, the venue's
 * executions also list one row Keel cannot decode.
 * @returns the client, its socket dropped
 */
function filledWhileDownWith(bad: boolean): Promise<ScriptedVenueClient> {
  return filledWhileDown((fill) =>
    bad
      ? [fill, { ...WIRE_EXECUTION, transactionId: 't-bad', quantity: 'n/a', timestamp: 1_700_000_000_290 }]
      : [fill],
  );
}

/**
 * Corrections held back while the execution catch-up failed were held for ever: an order filled
 * while the socket was down whose catch-up keeps failing (one execution row Keel cannot decode,
 * a DecodeError no retry cures; or the history endpoint down) stayed open with nothing executed
 * (a risk limit held, its strategy never told), though the venue's position was reported.
 */
describe('live execution client: order states held back for fills the catch-up cannot fetch', () => {
  let h: ScriptedVenueClient;
  afterEach(async () => h?.stop());

  it('reports the fill and then FILLED when one execution row cannot be decoded, with no warning', async () => {
    h = await filledWhileDownWith(true);
    await advanceUntil(h.timer, () => h.ws.logins === 2, 'second login');
    await advanceUntil(h.timer, () => sequenceOf(h, 'c-f').includes('order FILLED'), 'FILLED', 100, 100);
    expect(sequenceOf(h, 'c-f')).toEqual(['order NEW', 'fill t-f', 'order FILLED']);
    expect(h.live.unfetchedFillWarnings).toEqual([]);
  });

  it('holds FILLED for 30 s of a failing catch-up, then reports it with a warning; the fill comes once it can be fetched', async () => {
    h = await filledWhileDownWith(false);
    let down = true;
    h.state.extra = (r) =>
      r.path === PAGEABLE && h.ws.logins >= 2 && down
        ? { status: 503, body: { code: 503, message: 'history unavailable' } }
        : undefined;
    await advanceUntil(h.timer, () => h.ws.logins === 2, 'second login');
    const reconnected = h.timer.now();
    await advanceUntil(
      h.timer,
      () => h.events.some((e) => e.kind === 'position' && e.position.positionQty.eq(1)),
      'the position correction',
    );
    await advanceUntil(h.timer, () => h.timer.now() - reconnected >= 25_000, '25 s', 1_000, 30);
    expect(sequenceOf(h, 'c-f')).toEqual(['order NEW']);
    await advanceUntil(h.timer, () => sequenceOf(h, 'c-f').includes('order FILLED'), 'FILLED', 1_000, 60);
    expect(h.timer.now() - reconnected).toBeLessThan(65_000);
    expect(h.live.unfetchedFillWarnings).toHaveLength(1);
    expect(h.live.reconciliationWarnings).toEqual(h.live.unfetchedFillWarnings);
    expect(h.live.unfetchedFillWarnings[0]).toMatch(
      /^1 order \(c-f\) executed further than the fills Keel reported, and the executions made while the socket was down could not be fetched for \d+ s/,
    );
    down = false;
    await advanceUntil(h.timer, () => sequenceOf(h, 'c-f').includes('fill t-f'), 'the fill', 1_000, 60);
    expect(sequenceOf(h, 'c-f')).toEqual(['order NEW', 'order FILLED', 'fill t-f']);
    expect(h.live.unfetchedFillWarnings).toHaveLength(1);
  }, 60_000);

  it('reports a part-filled order adopted at the start within a minute when the executions can never be listed', async () => {
    h = await liveClientOnScriptedVenue({
      openOrders: [
        {
          ...WIRE_ORDER,
          clientOrderId: 'c-old',
          orderId: 'o-old',
          orderQty: '2',
          orderState: 'PARTIALLY_FILLED',
          executedQty: '1',
        },
      ],
      extra: (r) =>
        r.path === PAGEABLE
          ? { status: 503, body: { code: 503, message: 'history unavailable' } }
          : undefined,
    });
    const started = h.timer.now();
    expect(sequenceOf(h, 'c-old')).toEqual([]);
    await advanceUntil(h.timer, () => sequenceOf(h, 'c-old').length > 0, 'the adopted order', 1_000, 90);
    expect(h.timer.now() - started).toBeLessThan(65_000);
    expect(sequenceOf(h, 'c-old')).toEqual(['order PARTIALLY_FILLED']);
    expect(h.live.unfetchedFillWarnings[0]).toMatch(/^1 order \(c-old\) executed further/);
  }, 60_000);
});
