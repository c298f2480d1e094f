import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FeedSource, PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { aPaperVenue } from '../../kit/paper-venue-builders.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const venues: PaperVenue[] = [];
const aDataDir = tempDirsRemovedAfterEach('keel-test-venue-lock3-');
afterEach(async () => {
  for (const venue of venues.splice(0)) await venue.close().catch(() => undefined);
});

/** A feed with no event whose source fails to close (e.g. a recording file the OS will not close). */
const feedFailingToStop: FeedSource = () => ({
  next: () => new Promise(() => undefined),
  return: () => Promise.reject(new Error('the feed could not be closed')),
});

describe('a paper venue whose close fails', () => {
  it('says why, and still frees the data dir and its port: the next venue on it starts', async () => {
    const dataDir = aDataDir();
    const first = await aPaperVenue({ dataDir, feed: feedFailingToStop });
    await expect(first.close()).rejects.toThrow('the feed could not be closed');
    expect(existsSync(join(dataDir, 'paper-venue.lock')), 'the closed venue kept its lock').toBe(false);
    await expect(fetch(`${first.restUrl}/api/v1/system/status`)).rejects.toThrow();
    venues.push(await aPaperVenue({ dataDir }));
  });
});
