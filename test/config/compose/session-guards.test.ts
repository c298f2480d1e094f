import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountKillSwitchFileOf, accountOf } from '../../../config/compose/kill-switch-file.ts';
import { liveSessionRigs, SESSION_SYM } from '../../kit/live-session-rig.ts';

const REST_AND_TAKE = resolve('test/config/fixtures/rest-and-take-plugin.ts');
const newRig = liveSessionRigs();

/** The kill switch's state file of the rig's account (key `k` on its venue). */
function accountFile(rig: Awaited<ReturnType<typeof newRig>>): string {
  return accountKillSwitchFileOf(rig.stateDir, accountOf(rig.venue.restUrl, 'k'));
}

/** The session account's orders still open on the venue, as `clientOrderId` list. */
async function venueOpenRefs(rig: Awaited<ReturnType<typeof newRig>>): Promise<string[]> {
  const reply = await rig.rest('GET', '/api/v1/trading/orders', {});
  return (reply.body.data as { clientOrderId: string }[]).map((o) => o.clientOrderId);
}

describe('a live session when a strategy stops being managed', () => {
  it('trips the kill switch to HALTED, pulls the strategies’ resting orders and keeps the trip across a restart', async () => {
    const rig = await newRig();
    const dir = rig.newDir();
    const session = {
      strategies: `  - { id: rt, use: ${JSON.stringify(REST_AND_TAKE)}, params: { sym: ${SESSION_SYM}, take: true } }`,
      durationSec: 2,
      extra: 'risk: { killSwitch: { dailyLossLimit: 0.001 } }\n',
      dir,
    };
    const first = await rig.run(session);
    expect(await venueOpenRefs(rig)).toEqual([]);
    const restOrder = [...first.result.orders].find((o) => o.orderType === 'LIMIT');
    expect(restOrder?.orderState).toBe('CANCELLED');
    const saved = JSON.parse(readFileSync(accountFile(rig), 'utf8'));
    expect(saved.trip.state).toBe('HALTED');
    expect(saved.trip.reason).toMatch(/^kill switch: daily loss/);

    const second = await rig.run(session);
    expect([...second.result.orders]).toEqual([]);
    expect([...(second.result.denials ?? [])].map((d) => d.check)).toContain('tradingState');
  }, 40_000);

  it('keeps the trip for another config on the account, whose result goes elsewhere', async () => {
    const rig = await newRig();
    const session = {
      strategies: `  - { id: rt, use: ${JSON.stringify(REST_AND_TAKE)}, params: { sym: ${SESSION_SYM}, take: true } }`,
      durationSec: 2,
      // Above what the venue's marks move the open long in a second, below what the take's fee and spread cost.
      extra: 'risk: { killSwitch: { dailyLossLimit: 0.2 } }\n',
    };
    const first = await rig.run({ ...session, dir: rig.newDir() });
    expect((first.result.meta.warnings ?? []).some((w) => w.includes('tripped to HALTED'))).toBe(true);

    const second = await rig.run({ ...session, dir: rig.newDir() });
    expect([...second.result.orders]).toEqual([]);
    expect([...(second.result.denials ?? [])].map((d) => d.check)).toContain('tradingState');
  }, 40_000);

  it('says in its result that the trip could not be saved when its state file cannot be written', async () => {
    const rig = await newRig();
    const dir = rig.newDir();
    const file = accountFile(rig);
    // Every save fails (the temporary file's name is taken by a directory, as a full disk would).
    mkdirSync(`${file}.${process.pid}.tmp`, { recursive: true });
    const outcome = await rig.run({
      strategies: `  - { id: rt, use: ${JSON.stringify(REST_AND_TAKE)}, params: { sym: ${SESSION_SYM}, take: true } }`,
      durationSec: 2,
      extra: 'risk: { killSwitch: { dailyLossLimit: 0.001 } }\n',
      dir,
    });
    expect(existsSync(file)).toBe(false);
    expect((outcome.result.meta.warnings ?? []).filter((w) => w.includes('could not be saved'))).toEqual([
      expect.stringMatching(
        /^the kill switch state could not be saved to .*kill-switch\/[0-9a-f]{16}\.json \(.*\): a restart on this account does not know of the trip \(trading HALTED\): it would trade again$/,
      ),
    ]);
  }, 30_000);

  it('trips the kill switch to REDUCING and pulls the strategies’ resting orders that would add risk', async () => {
    const rig = await newRig();
    const outcome = await rig.run({
      strategies: `  - { id: rt, use: ${JSON.stringify(REST_AND_TAKE)}, params: { sym: ${SESSION_SYM}, take: true } }`,
      durationSec: 2,
      extra: 'risk: { killSwitch: { dailyLossLimit: 0.001, tripTo: REDUCING } }\n',
      dir: rig.newDir(),
    });
    expect((outcome.result.meta.warnings ?? []).some((w) => w.includes('tripped to REDUCING'))).toBe(true);
    // The buy resting far below would grow the long the market buy opened.
    expect(await venueOpenRefs(rig)).toEqual([]);
    const restOrder = [...outcome.result.orders].find((o) => o.orderType === 'LIMIT');
    expect(restOrder?.orderState).toBe('CANCELLED');
  }, 30_000);

  it('cancels the resting orders of a strategy halted by a fault, and the session exits with the fault code', async () => {
    const rig = await newRig();
    const outcome = await rig.run({
      strategies: `  - { id: rt, use: ${JSON.stringify(REST_AND_TAKE)}, params: { sym: ${SESSION_SYM}, throwOnQuote: 3 } }`,
      durationSec: 2,
    });
    expect((outcome.result.faults ?? []).map((f) => f.strategyId)).toEqual(['rt']);
    expect(await venueOpenRefs(rig)).toEqual([]);
    expect([...outcome.result.orders].map((o) => o.orderState)).toEqual(['CANCELLED']);
    expect(outcome.exitCode).toBe(3);
  }, 30_000);

  it('keeps the stop-loss of the position a strategy halted by a fault leaves open, cancelling its other orders', async () => {
    const rig = await newRig();
    const outcome = await rig.run({
      strategies: `  - { id: rt, use: ${JSON.stringify(REST_AND_TAKE)}, params: { sym: ${SESSION_SYM}, take: true, stopLoss: true, throwOnQuote: 3 } }`,
      durationSec: 2,
    });
    expect((outcome.result.faults ?? []).map((f) => f.strategyId)).toEqual(['rt']);
    // The buy resting far below would grow the long: cancelled. The long's stop-loss stays.
    expect(await venueOpenRefs(rig)).toEqual([]);
    const restOrder = [...outcome.result.orders].find((o) => o.orderType === 'LIMIT');
    expect(restOrder?.orderState).toBe('CANCELLED');
    const openAlgos = await rig.rest('GET', '/api/v1/algo/openOrders', {});
    expect((openAlgos.body.data as { clientAlgoOrderId: string }[]).map((a) => a.clientAlgoOrderId)).toEqual([
      'entry-sl',
    ]);
  }, 30_000);
});
