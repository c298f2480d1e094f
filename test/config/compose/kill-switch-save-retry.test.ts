import { mkdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { accountOf, readKillSwitchFile } from '../../../config/compose/kill-switch-file.ts';
import { watchKillSwitch } from '../../../config/compose/kill-switch-watch.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-kill-switch-retry-');
const ACCOUNT = accountOf('http://127.0.0.1:1/api', 'key-a');
const NOW = 86_400_000 * 400 + 1000;
const MARKS = { day: 400, startOfDay: D(1000), highWater: D(1000) };

/** A watch on a fresh state file, its log records, and its gate with the day's baseline saved. */
function aWatch() {
  const path = join(newDir(), 'run-result.kill-switch.json');
  const lines: { level: number; msg: string }[] = [];
  const gate = new RiskGate({ killSwitch: { dailyLossLimit: '5' } });
  const watch = watchKillSwitch({
    gate,
    path,
    account: ACCOUNT,
    run: 'run',
    logger: pino({ level: 'info' }, { write: (text: string) => lines.push(JSON.parse(text)) }),
    now: () => NOW,
    countTrip: () => {},
  });
  gate.restoreKillSwitch({ marks: MARKS }, NOW);
  watch.save();
  const halt = () =>
    gate.restoreKillSwitch(
      { marks: MARKS, trip: { state: 'HALTED', reason: 'daily loss', since: NOW } },
      NOW,
    );
  const savedTrip = () => {
    const read = readKillSwitchFile(path, ACCOUNT);
    return read.kind === 'restored' ? read.state.trip?.state : read.kind;
  };
  return { path, lines, watch, halt, savedTrip };
}

describe('a kill-switch trip whose save failed (disk full at the trip)', () => {
  it('is saved by a later save once the disk has room again (at the next beat or at stop)', () => {
    const { path, lines, watch, halt, savedTrip } = aWatch();
    // The disk is full at the trip (emulated: this process's temporary file's name is taken by a directory).
    mkdirSync(`${path}.${process.pid}.tmp`);
    halt();
    watch.save();
    expect(savedTrip()).toBeUndefined();
    // Room again; the 5-second beat and the stop both call save().
    rmdirSync(`${path}.${process.pid}.tmp`);
    watch.save();
    expect(savedTrip()).toBe('HALTED');
    expect(watch.unsaved()).toBeUndefined();
    expect(lines.map((l) => [l.level, l.msg.replace(/\(EISDIR[^)]*\)/, '(EISDIR…)')])).toEqual([
      [
        50,
        `cannot write the kill switch state file ${path} (EISDIR…): a restart on this account would not know of the trip (trading HALTED): it would trade again; trying again at each save`,
      ],
      [30, `kill switch state file ${path} written again`],
    ]);
  });

  it('logs the failure once however often it retries, and says at stop that the trip was not saved', () => {
    const { path, lines, watch, halt, savedTrip } = aWatch();
    mkdirSync(`${path}.${process.pid}.tmp`);
    halt();
    for (let i = 0; i < 5; i++) watch.save();
    expect(savedTrip()).toBeUndefined();
    expect(lines.filter((l) => l.level === 50)).toHaveLength(1);
    expect(watch.unsaved()).toMatch(
      new RegExp(
        `^the kill switch state could not be saved to ${path} \\(.*EISDIR.*\\): a restart on this account does not know of the trip \\(trading HALTED\\): it would trade again$`,
      ),
    );
  });
});
