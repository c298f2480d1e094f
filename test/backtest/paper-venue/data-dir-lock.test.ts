import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, type PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { processIdentity } from '../../../backtest/report/index.ts';
import { aPaperVenue } from '../../kit/paper-venue-builders.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const venues: PaperVenue[] = [];
const aDataDir = tempDirsRemovedAfterEach('keel-test-venue-lock-');
afterEach(async () => {
  for (const venue of venues.splice(0)) await venue.close().catch(() => undefined);
});

describe('a paper venue with a data dir', () => {
  it('refuses to start on a data dir another running venue holds (both would journal into one log)', async () => {
    const dataDir = aDataDir();
    venues.push(await aPaperVenue({ dataDir }));
    const second = aPaperVenue({ dataDir });
    second.then((venue) => venues.push(venue)).catch(() => undefined);
    await expect(second).rejects.toBeInstanceOf(DataDirInUseError);
    await expect(second).rejects.toThrow(
      new RegExp(`another Keel run \\(pid ${process.pid}, .*\\) holds the paper venue's data dir ${dataDir}`),
    );
  });

  it('frees the data dir when it closes: the next venue on it starts', async () => {
    const dataDir = aDataDir();
    const first = await aPaperVenue({ dataDir });
    await first.close();
    expect(existsSync(join(dataDir, 'paper-venue.lock'))).toBe(false);
    venues.push(await aPaperVenue({ dataDir }));
  });

  it('takes over the lock of a venue that is gone', async () => {
    const dataDir = aDataDir();
    // A pid no process has (above the kernel's pid_max), as a venue killed long ago leaves behind.
    const dead = { ...processIdentity(), pid: 4_194_305, startedAt: '2026-01-01T00:00:00.000Z' };
    writeFileSync(join(dataDir, 'paper-venue.lock'), `${JSON.stringify(dead)}\n`);
    venues.push(await aPaperVenue({ dataDir }));
  });

  it('frees the data dir when it fails to start', async () => {
    const dataDir = aDataDir();
    writeFileSync(join(dataDir, 'paper-venue.commands.jsonl'), 'not a command log\n');
    await expect(aPaperVenue({ dataDir })).rejects.toThrow();
    expect(existsSync(join(dataDir, 'paper-venue.lock'))).toBe(false);
  });
});
