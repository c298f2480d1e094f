import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PaperSnapshot, SnapshotWriter, writeWhole } from '../../../backtest/paper-venue/persistence.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-snapshot-fail-');

function snapshotAt(released: number): PaperSnapshot {
  return {
    format: 'keel-paper-venue',
    version: 2,
    released,
    virtualNow: released,
    journalLength: 0,
    markups: {},
  };
}

describe("the paper venue's snapshot when it cannot be written (a full disk)", () => {
  it('never throws from its timer: the failure is told once, retried, and its recovery told', async () => {
    const dir = aTempDir();
    const timer = fakeTimer();
    const told: string[] = [];
    let released = 1;
    const writer = new SnapshotWriter(
      dir,
      timer,
      1_000,
      () => snapshotAt(released),
      async () => ({}),
      (m) => told.push(m),
    );
    writer.changed();
    await timer.advance(1_000);
    expect(JSON.parse(readFileSync(join(dir, 'paper-venue.json'), 'utf8')).released).toBe(1);
    // A directory where the temporary file goes fails every write, as a full disk does.
    mkdirSync(join(dir, 'paper-venue.json.tmp'));
    released = 2;
    writer.changed();
    await timer.advance(1_000);
    await timer.advance(1_000);
    await timer.advance(1_000);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(
      /^paper venue snapshot not saved, retrying: cannot write .*paper-venue\.json.*: .*the venue goes on; restarted now/,
    );
    expect(JSON.parse(readFileSync(join(dir, 'paper-venue.json'), 'utf8')).released).toBe(1);
    rmSync(join(dir, 'paper-venue.json.tmp'), { recursive: true });
    released = 3;
    await timer.advance(1_000);
    expect(JSON.parse(readFileSync(join(dir, 'paper-venue.json'), 'utf8')).released).toBe(3);
    expect(told).toEqual([told[0], expect.stringContaining('paper venue snapshot saved again')]);
  });

  it('writeWhole fails naming the file and leaves the previous file whole', () => {
    const dir = aTempDir();
    const path = join(dir, 'state.json');
    writeFileSync(path, 'previous');
    mkdirSync(`${path}.tmp`);
    expect(() => writeWhole(path, 'new')).toThrow(/^cannot write .*state\.json: EISDIR/);
    expect(readFileSync(path, 'utf8')).toBe('previous');
  });
});
