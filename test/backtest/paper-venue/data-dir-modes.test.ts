import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_LOG_FILE, CommandLog } from '../../../backtest/paper-venue/command-log.ts';
import { writeWhole } from '../../../backtest/paper-venue/index.ts';
import { modeOf, modesUnder, POSIX_MODES } from '../../kit/file-modes.ts';
import { aPaperVenue, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const aDir = tempDirsRemovedAfterEach('keel-data-dir-modes-');

describe.skipIf(!POSIX_MODES)("the modes of a paper venue's data dir", () => {
  // Its snapshot and command log hold the account's orders, fills and balances: they were 0644.
  it('are 0600 for its files and 0700 for the directories it creates', async () => {
    const dataDir = join(aDir(), 'venue', 'data');
    const venue = await aPaperVenue({ dataDir });
    try {
      await withFirstQuotes(venue);
      const placed = await signedRest(venue, 'POST', '/api/v1/trading/order', {
        sym: 'BINANCE_PERP_BTC_USDT',
        side: 'BUY',
        orderType: 'LIMIT',
        orderQty: '1',
        limitPrice: '90',
        clientOrderId: 'rests',
      });
      expect(placed.body).toMatchObject({ code: 0 });
    } finally {
      await venue.close();
    }
    const modes = modesUnder(dataDir);
    expect(Object.keys(modes)).toContain(COMMAND_LOG_FILE);
    expect(new Set(Object.values(modes))).toEqual(new Set(['600']));
    expect([modeOf(join(dataDir, '..')), modeOf(dataDir)]).toEqual(['700', '700']);
  });

  it('are 0600 for a file that existed with a wider mode, and one written over a crashed write', () => {
    const dir = aDir();
    const log = join(dir, COMMAND_LOG_FILE);
    writeFileSync(log, '', { mode: 0o644 });
    new CommandLog(dir).append(
      { at: 1, portfolioId: 'main', command: 'placeOrder', params: {}, where: 'POST /api/v1/trading/order' },
      0,
    );
    const snapshot = join(dir, 'snapshot.json');
    writeFileSync(`${snapshot}.tmp`, 'torn', { mode: 0o644 });
    writeWhole(snapshot, '{}');
    chmodSync(snapshot, 0o644);
    writeWhole(snapshot, '{}');
    expect([modeOf(log), modeOf(snapshot)]).toEqual(['600', '600']);
  });
});
