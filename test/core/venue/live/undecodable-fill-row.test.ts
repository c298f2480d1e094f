import { afterEach, describe, expect, it } from 'vitest';
import { approved } from '../../../kit/approved-intents.ts';
import { filledWhileDown, sequenceOf } from '../../../kit/filled-while-down.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import {
  liveClientOnScriptedVenue,
  type ScriptedVenueClient,
} from '../../../kit/live-client-on-scripted-venue.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { WIRE_EXECUTION } from '../../../kit/venue-wire-samples.ts';

/**
 * An order fills while the socket is down (see {@link filledWhileDown}), and the venue's
 * executions list its fill as a row Keel cannot decode (`rebate` null).
 * @returns the client, its socket dropped
 */
function filledWithUndecodableFill(): Promise<ScriptedVenueClient> {
  return filledWhileDown((fill) => [{ ...fill, rebate: null }]);
}

/**
 * An execution row the catch-up after a reconnect could not decode was left out of it (logged
 * and counted malformed), and the catch-up counted as complete: when that row was the fill of an
 * order that filled while the socket was down, its FILLED correction went out at once without the
 * fill, no later catch-up asked again, and the session's result (meta.warnings) said nothing.
 */
describe('live execution client: an execution row the catch-up cannot decode', () => {
  let h: ScriptedVenueClient;
  afterEach(async () => h?.stop());

  it('holds the order state that depends on it as for a failing catch-up, then reports it with warnings naming the order and the row', async () => {
    h = await filledWithUndecodableFill();
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
    expect(sequenceOf(h, 'c-f')).toEqual(['order NEW', 'order FILLED']);
    expect(h.live.leftOutExecutionWarnings).toHaveLength(1);
    expect(h.live.leftOutExecutionWarnings[0]).toMatch(
      /^1 execution row \(transactionId t-f of order c-f\) listed by the venue after a reconnect could not be decoded and was left out/,
    );
    expect(h.live.unfetchedFillWarnings).toHaveLength(1);
    expect(h.live.unfetchedFillWarnings[0]).toMatch(
      /^1 order \(c-f\) executed further than the fills Keel reported, and the executions made while the socket was down came with rows Keel could not decode/,
    );
    expect(h.live.reconciliationWarnings).toEqual([
      ...h.live.leftOutExecutionWarnings,
      ...h.live.unfetchedFillWarnings,
    ]);
    // Reconciled then: no retry asks again, and the row is named once.
    await advanceUntil(h.timer, () => h.timer.now() - reconnected >= 120_000, '2 min', 1_000, 120);
    expect(h.live.reconciliationWarnings).toHaveLength(2);
  }, 60_000);

  it('reports an order filled by the fills it could decode at once, and names the row it left out', async () => {
    h = await filledWithUndecodableFill();
    h.state.executions = [
      { ...h.state.executions[0], rebate: '0' },
      { ...WIRE_EXECUTION, transactionId: 't-bad', quantity: 'n/a', timestamp: 1_700_000_000_290 },
    ];
    await advanceUntil(h.timer, () => h.ws.logins === 2, 'second login');
    await advanceUntil(h.timer, () => sequenceOf(h, 'c-f').includes('order FILLED'), 'FILLED', 100, 100);
    expect(sequenceOf(h, 'c-f')).toEqual(['order NEW', 'fill t-f', 'order FILLED']);
    expect(h.live.unfetchedFillWarnings).toEqual([]);
    expect(h.live.reconciliationWarnings).toEqual(h.live.leftOutExecutionWarnings);
    expect(h.live.leftOutExecutionWarnings).toHaveLength(1);
    expect(h.live.leftOutExecutionWarnings[0]).toMatch(
      /^1 execution row \(transactionId t-bad of order c-1\)/,
    );
  });

  it('says nothing of a row that was already on the venue when the session started', async () => {
    h = await liveClientOnScriptedVenue({
      executions: [{ ...WIRE_EXECUTION, transactionId: 't-old', quantity: 'n/a' }],
    });
    h.live.submit(approved(aLimitOrder({ ref: 'c-f' })));
    await waitFor(() => sequenceOf(h, 'c-f').length === 1, 'the ack');
    h.ws.dropAll();
    await advanceUntil(h.timer, () => h.ws.logins === 2, 'second login');
    await advanceUntil(h.timer, () => h.live.reconciliationWarnings.length > 0, 'a warning', 100, 50).catch(
      () => undefined,
    );
    expect(h.live.reconciliationWarnings).toEqual([]);
  });
});
