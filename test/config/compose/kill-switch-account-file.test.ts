import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  accountKillSwitchFileOf,
  accountOf,
  killSwitchFileText,
  readKillSwitchFile,
  resultKillSwitchFileOf,
  writeKillSwitchFile,
} from '../../../config/compose/kill-switch-file.ts';
import { watchKillSwitch } from '../../../config/compose/kill-switch-watch.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-kill-switch-account-');
const VENUE = 'https://venue.example/api';
const ACCOUNT = accountOf(VENUE, 'key-a');
const DAY = 400;
const NOW = 86_400_000 * DAY + 1000;

/** A run's watch on `path` with a fresh gate (dailyLossLimit 5), as a config's session starts it. */
function aRun(path: string, options: { run?: string; account?: string; formerPath?: string } = {}) {
  const lines: { level: number; msg: string }[] = [];
  const halted: string[] = [];
  const gate = new RiskGate({ killSwitch: { dailyLossLimit: '5' } });
  const watch = watchKillSwitch({
    gate,
    path,
    ...(options.formerPath === undefined ? {} : { formerPath: options.formerPath }),
    account: options.account ?? ACCOUNT,
    run: options.run ?? 'run',
    logger: pino({ level: 'info' }, { write: (text: string) => lines.push(JSON.parse(text)) }),
    now: () => NOW,
    countTrip: () => {},
    onHalted: (trip) => halted.push(trip.state),
  });
  return { gate, watch, lines, halted };
}

describe("the kill switch's account file", () => {
  it('is one per venue address and API key, in the state directory, whatever the run', () => {
    const stateDir = newDir();
    const path = accountKillSwitchFileOf(stateDir, ACCOUNT);
    expect(path.startsWith(join(stateDir, 'kill-switch'))).toBe(true);
    expect(path).not.toContain('key-a');
    expect(accountKillSwitchFileOf(stateDir, accountOf(VENUE, 'key-a'))).toBe(path);
    expect(accountKillSwitchFileOf(stateDir, accountOf(VENUE, 'key-b'))).not.toBe(path);
    expect(accountKillSwitchFileOf(stateDir, accountOf('https://other.example/api', 'key-a'))).not.toBe(path);
  });

  it("gives a run started later on the account the first one's trip and start of day", async () => {
    const path = accountKillSwitchFileOf(newDir(), ACCOUNT);
    const first = aRun(path, { run: 'ks' });
    first.gate.observeEquity(NOW, D(100_000));
    first.gate.observeEquity(NOW, D(99_989));
    await Promise.resolve();
    expect(first.halted).toEqual(['HALTED']);
    first.watch.save();

    const second = aRun(path, { run: 'ks2' });
    expect(second.gate.killSwitchState().trip?.state).toBe('HALTED');
    expect(second.gate.killSwitchState().marks?.startOfDay.toFixed()).toBe('100000');
    second.watch.started();
    expect(second.halted).toEqual(['HALTED']);
  });

  it('is the same file however a config spells the venue address (case, default port, trailing slash)', () => {
    const stateDir = newDir();
    const path = accountKillSwitchFileOf(stateDir, ACCOUNT);
    for (const spelling of [
      'https://venue.example/api/',
      'https://VENUE.example:443/api',
      'https://venue.example/api//',
    ])
      expect(accountKillSwitchFileOf(stateDir, accountOf(spelling, 'key-a'))).toBe(path);
    // A file an earlier Keel wrote with another spelling is still this account's.
    const tripped = { state: 'HALTED' as const, reason: 'daily loss', since: NOW };
    writeKillSwitchFile(
      path,
      killSwitchFileText(
        { trip: tripped },
        'https://venue.example/api/ key ' + ACCOUNT.split(' key ')[1],
        'ks',
      ),
    );
    expect(readKillSwitchFile(path, ACCOUNT)).toMatchObject({ kind: 'restored' });
  });

  it('is not shared with another API key or venue', () => {
    const stateDir = newDir();
    const path = accountKillSwitchFileOf(stateDir, ACCOUNT);
    const tripped = { state: 'HALTED' as const, reason: 'daily loss', since: NOW };
    writeKillSwitchFile(path, killSwitchFileText({ trip: tripped }, ACCOUNT, 'ks'));
    for (const other of [accountOf(VENUE, 'key-b'), accountOf('https://other.example/api', 'key-a')]) {
      const run = aRun(accountKillSwitchFileOf(stateDir, other), { account: other });
      expect(run.gate.killSwitchState()).toEqual({});
    }
  });

  it('takes in a trip another running config wrote, at its next save, and never writes over it', () => {
    const path = accountKillSwitchFileOf(newDir(), ACCOUNT);
    const a = aRun(path, { run: 'a' });
    const b = aRun(path, { run: 'b' });
    a.watch.started();
    b.watch.started();
    a.gate.observeEquity(NOW, D(1000));
    b.gate.observeEquity(NOW, D(1001));
    a.watch.save();
    b.watch.save();
    // b trips; a's marks move before its next save.
    b.gate.observeEquity(NOW + 1, D(990));
    a.gate.observeEquity(NOW + 2, D(1002));
    a.watch.save();
    expect(a.gate.killSwitchState().trip?.state).toBe('HALTED');
    expect(a.halted).toEqual(['HALTED']);
    expect(a.lines.map((l) => [l.level, l.msg])).toContainEqual([
      50,
      'kill switch tripped by another run on this account: trading is HALTED (kill switch: daily loss 10 reached the limit 5 (equity 990, start of UTC day 1000))',
    ]);
    const saved = readKillSwitchFile(path, ACCOUNT);
    if (saved.kind !== 'restored') throw new Error(saved.kind);
    expect(saved.state.trip?.state).toBe('HALTED');
    expect(saved.state.marks?.startOfDay.toFixed()).toBe('1000');
    expect(saved.state.marks?.highWater.toFixed()).toBe('1002');
  });

  it('is started from the file next to the result an earlier Keel kept, while it does not exist', () => {
    const dir = newDir();
    const path = accountKillSwitchFileOf(join(dir, 'state'), ACCOUNT);
    const formerPath = resultKillSwitchFileOf(join(dir, 'out', 'result.json'));
    expect(formerPath).toBe(join(dir, 'out', 'result.kill-switch.json'));
    const tripped = { state: 'HALTED' as const, reason: 'daily loss', since: NOW };
    const marks = { day: DAY, startOfDay: D(1000), highWater: D(1000) };
    writeKillSwitchFile(formerPath, killSwitchFileText({ marks, trip: tripped }, ACCOUNT, 'ks'));

    const migrated = aRun(path, { formerPath });
    expect(migrated.gate.killSwitchState().trip?.state).toBe('HALTED');
    expect(migrated.lines[0]?.msg).toBe(
      `kill switch restored from the earlier run's ${formerPath}; kept in ${path} from now on`,
    );
    // Written to the account's file at once, for the other configs on the account.
    const saved = readKillSwitchFile(path, ACCOUNT);
    expect(saved.kind === 'restored' ? saved.state.trip?.state : saved.kind).toBe('HALTED');

    // Once the account's file exists, the former one is not read.
    writeKillSwitchFile(path, killSwitchFileText({ marks }, ACCOUNT, 'ks'));
    expect(aRun(path, { formerPath }).gate.killSwitchState().trip).toBeUndefined();
  });
});
