import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, type PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { aPaperVenue } from '../../kit/paper-venue-builders.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

// A venue's close() released the data-dir lock by process identity, not by
// acquisition, so a second close() of an already closed venue removed the lock of the venue now running there.
const venues: PaperVenue[] = [];
const aDataDir = tempDirsRemovedAfterEach('keel-test-venue-lock2-');
afterEach(async () => {
  for (const venue of venues.splice(0)) await venue.close().catch(() => undefined);
});

describe('a closed venue closed again', () => {
  it('leaves the lock of the venue that took the data dir since', async () => {
    const dataDir = aDataDir();
    const first = await aPaperVenue({ dataDir });
    await first.close();
    const second = await aPaperVenue({ dataDir });
    venues.push(second);
    await first.close().catch(() => undefined); // e.g. a harness's afterEach closing every venue it made
    expect(existsSync(join(dataDir, 'paper-venue.lock')), 'the running venue lost its lock file').toBe(true);
    const third = aPaperVenue({ dataDir });
    third.then((venue) => venues.push(venue)).catch(() => undefined);
    await expect(third).rejects.toBeInstanceOf(DataDirInUseError);
  });
});
