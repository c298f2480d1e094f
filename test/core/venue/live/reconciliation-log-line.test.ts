import { afterEach, describe, expect, it } from 'vitest';
import { capturedLog } from '../../../kit/captured-log.ts';
import {
  dropAndReconcile,
  type LiveClientOnFakeVenue,
  liveClientOnFakeVenue,
} from '../../../kit/live-client-on-fake-venue.ts';
import { ok, WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

let rig: LiveClientOnFakeVenue | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const finished = (records: readonly Record<string, unknown>[]) =>
  records.filter((record) => String(record.msg).startsWith('reconciliation finished'));

describe("the log line of a reconciliation's end", () => {
  it('names the orders adopted at the start', async () => {
    const { logger, records } = capturedLog('info');
    rig = await liveClientOnFakeVenue({ logger }, (request) =>
      request.path === '/api/v1/trading/orders' ? { body: ok([WIRE_ORDER]) } : undefined,
    );
    expect(finished(records)).toMatchObject([
      { msg: 'reconciliation finished: trading resumes', corrected: { order: 1 }, adopted: ['c-1 OPEN'] },
    ]);
  });

  it('names the orders the venue no longer lists nor knows, still looked up, after a reconnect', async () => {
    const { logger, records } = capturedLog('info');
    rig = await liveClientOnFakeVenue({ logger }, (request) =>
      request.path === '/api/v1/trading/orders' ? { body: ok([WIRE_ORDER]) } : undefined,
    );
    rig.special = () => undefined;
    await dropAndReconcile(rig);
    expect(finished(records).at(-1)).toMatchObject({ lookingUp: ['c-1'] });
  });

  it('says trading stays stopped, and why, when something keeps it stopped', async () => {
    const { logger, records } = capturedLog('info');
    rig = await liveClientOnFakeVenue({ logger, tradingStopped: () => 'HALTED (kill switch: daily loss)' });
    expect(finished(records).map((record) => record.msg)).toEqual([
      'reconciliation finished; trading stays HALTED (kill switch: daily loss)',
    ]);
  });
});
