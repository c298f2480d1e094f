import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  accountKillSwitchFileOf,
  accountOf,
  killSwitchFileText,
  readKillSwitchFile,
  writeKillSwitchFile,
} from '../../../config/compose/kill-switch-file.ts';
import { watchKillSwitch } from '../../../config/compose/kill-switch-watch.ts';
import { D } from '../../../core/model/index.ts';
import { type KillSwitchState, RiskGate } from '../../../core/risk/index.ts';
import { modeOf, POSIX_MODES } from '../../kit/file-modes.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-kill-switch-');
const ACCOUNT = accountOf('http://127.0.0.1:1/api', 'key-a');

/** A pino logger writing its records into `lines`. */
function capturing(lines: { level: number; msg: string }[]) {
  return pino({ level: 'info' }, { write: (text: string) => lines.push(JSON.parse(text)) });
}

const amount = fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }).map((n) => D(n).div(100));
const states: fc.Arbitrary<KillSwitchState> = fc.record(
  {
    marks: fc.record({ day: fc.integer({ min: 0, max: 60_000 }), startOfDay: amount, highWater: amount }),
    trip: fc.record({
      state: fc.constantFrom('HALTED' as const, 'REDUCING' as const),
      reason: fc.string(),
      since: fc.integer({ min: 0 }),
    }),
  },
  { requiredKeys: [] },
);

describe('kill switch state file', () => {
  it('reads back what it wrote, for any state', () => {
    const path = join(newDir(), 'out', 'run-result.kill-switch.json');
    fc.assert(
      fc.property(states, (state) => {
        writeKillSwitchFile(path, killSwitchFileText(state, ACCOUNT, 'run'));
        const read = readKillSwitchFile(path, ACCOUNT);
        if (read.kind !== 'restored') throw new Error(read.kind);
        expect(killSwitchFileText(read.state, ACCOUNT, 'run')).toBe(
          killSwitchFileText(state, ACCOUNT, 'run'),
        );
      }),
      { numRuns: 50 },
    );
  });

  it('names the account by a fingerprint of the key, never the key', () => {
    expect(ACCOUNT).not.toContain('key-a');
    expect(accountOf('http://127.0.0.1:1/api', 'key-b')).not.toBe(ACCOUNT);
  });

  it('is not taken by another account: the kill switch starts afresh and says why', () => {
    const path = join(newDir(), 'ks.json');
    const state = { marks: { day: 1, startOfDay: D(100), highWater: D(100) } };
    writeKillSwitchFile(path, killSwitchFileText(state, accountOf('http://other', 'k'), 'run'));
    const lines: { level: number; msg: string }[] = [];
    const gate = new RiskGate({ killSwitch: { dailyLossLimit: '5' } });
    watchKillSwitch({
      gate,
      path,
      account: ACCOUNT,
      run: 'run',
      logger: capturing(lines),
      now: () => 86_400_000 + 1,
      countTrip: () => {},
    });
    expect(gate.killSwitchState().marks).toBeUndefined();
    expect(lines.map((l) => l.msg)).toEqual([
      `kill switch state file ${path} is of another account: ignored, the kill switch starts from a fresh baseline`,
    ]);
  });

  it('warns about an unreadable file and goes on with a fresh baseline', () => {
    const path = join(newDir(), 'ks.json');
    writeFileSync(path, '{ not json');
    const lines: { level: number; msg: string }[] = [];
    const gate = new RiskGate({ killSwitch: { dailyLossLimit: '5' } });
    watchKillSwitch({
      gate,
      path,
      account: ACCOUNT,
      run: 'run',
      logger: capturing(lines),
      now: () => 1,
      countTrip: () => {},
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe(40);
    expect(lines[0]?.msg).toMatch(
      /^kill switch state file .* cannot be read \(not JSON .*\): the kill switch starts from a fresh baseline$/,
    );
  });

  it('logs a trip at error with its figures, counts it, saves it and calls for the orders to be pulled', async () => {
    const path = join(newDir(), 'ks.json');
    const lines: { level: number; msg: string }[] = [];
    const counted: string[] = [];
    let halted = 0;
    const gate = new RiskGate({ killSwitch: { dailyLossLimit: '5' } });
    watchKillSwitch({
      gate,
      path,
      account: ACCOUNT,
      run: 'run',
      logger: capturing(lines),
      now: () => 1,
      countTrip: (state) => counted.push(state),
      onHalted: () => halted++,
    });
    gate.observeEquity(1, D(100));
    gate.observeEquity(2, D(94));
    await Promise.resolve();
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [
        50,
        'kill switch tripped: trading is HALTED (daily loss 6 reached the limit 5 (equity 94, start of UTC day 100))',
      ],
    ]);
    expect(counted).toEqual(['HALTED']);
    expect(halted).toBe(1);
    const read = readKillSwitchFile(path, ACCOUNT);
    expect(read.kind === 'restored' ? read.state.trip?.state : read.kind).toBe('HALTED');
  });

  it('calls for the orders that add risk to be pulled on a trip to REDUCING, new or restored at a restart', async () => {
    const path = join(newDir(), 'ks.json');
    const pulled: string[] = [];
    const watch = (gate: RiskGate) =>
      watchKillSwitch({
        gate,
        path,
        account: ACCOUNT,
        run: 'run',
        logger: capturing([]),
        now: () => 2,
        countTrip: () => undefined,
        onHalted: () => pulled.push('halted'),
        onReducing: () => pulled.push('reducing'),
      });
    const gate = new RiskGate({ killSwitch: { dailyLossLimit: '5', tripTo: 'REDUCING' } });
    watch(gate);
    gate.observeEquity(1, D(100));
    gate.observeEquity(2, D(94));
    await Promise.resolve();
    expect(pulled).toEqual(['reducing']);
    const restarted = watch(new RiskGate({ killSwitch: { dailyLossLimit: '5', tripTo: 'REDUCING' } }));
    expect(pulled).toEqual(['reducing']);
    restarted.started();
    expect(pulled).toEqual(['reducing', 'reducing']);
  });
});

describe.skipIf(!POSIX_MODES)('the mode of a kill switch state file', () => {
  it('is 0600, in the folder it creates 0700', () => {
    const stateDir = join(newDir(), 'state');
    const path = accountKillSwitchFileOf(stateDir, ACCOUNT);
    writeKillSwitchFile(path, '{}\n');
    expect([modeOf(stateDir), modeOf(join(stateDir, 'kill-switch')), modeOf(path)]).toEqual([
      '700',
      '700',
      '600',
    ]);
  });
});
