import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_LOG_FILE, type PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

// Declared first, so removed last: the venue closes (writing its snapshot) before its dir goes.
const aDataDir = tempDirsRemovedAfterEach('keel-cmdlog-failed-');
const opened = closedAfterEachTest();
const BTC = 'BINANCE_PERP_BTC_USDT';

const order = (clientOrderId: string) => ({
  sym: BTC,
  side: 'BUY',
  orderType: 'MARKET',
  orderQty: '0.01',
  clientOrderId,
});

const place = async (venue: PaperVenue, clientOrderId: string) =>
  signedRest(venue, 'POST', '/api/v1/trading/order', order(clientOrderId));

/** The client order ids the venue knows, of those asked about. */
async function known(venue: PaperVenue, ids: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const clientOrderId of ids) {
    const reply = await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId });
    if (reply.body.code === 0) found.push(clientOrderId);
  }
  return found;
}

/**
 * Places three orders with the second's log write failing (`failing` makes it fail and undoes
 * that), then restarts on the data dir: the restart must succeed and hold exactly the acknowledged
 * orders (its replay of the log must give the account the venue wrote at close).
 */
async function failedSecondWrite(failing: (log: string) => () => void): Promise<void> {
  const dataDir = aDataDir();
  const log = join(dataDir, COMMAND_LOG_FILE);
  const first = await withFirstQuotes(await aPaperVenue({ dataDir }));
  opened.venue = first;
  expect((await place(first, 'o1')).body.code).toBe(0);
  const undo = failing(log);
  const failed = await place(first, 'o2');
  undo();
  expect(failed.status).toBe(500);
  expect((await place(first, 'o3')).body.code).toBe(0);
  expect(await known(first, ['o1', 'o2', 'o3'])).toEqual(['o1', 'o3']);
  await first.close();
  opened.venue = undefined;
  const lines = readFileSync(log, 'utf8').split('\n');
  expect(lines.pop()).toBe('');
  expect(lines.map((line) => JSON.parse(line).index)).toEqual([0, 1]);
  opened.venue = await aPaperVenue({ dataDir });
  expect(await known(opened.venue, ['o1', 'o2', 'o3'])).toEqual(['o1', 'o3']);
}

describe('a paper venue whose command log write fails once (disk full for a moment)', () => {
  it('refuses that command, leaves no gap in the log, and restarts with the commands it acknowledged', async () => {
    // ENOSPC / EIO on open, emulated by a directory in the log's place.
    await failedSecondWrite((log) => {
      renameSync(log, `${log}.away`);
      mkdirSync(log);
      return () => {
        rmdirSync(log);
        renameSync(`${log}.away`, log);
      };
    });
  });

  it('cuts a write cut short (the file-size limit / disk full mid-line) back, so no torn line ends up mid-log', async () => {
    // Only 20 more bytes fit: the next line is written in part, then EFBIG (as ENOSPC cuts a write).
    await failedSecondWrite((log) => {
      execFileSync('prlimit', ['--pid', String(process.pid), `--fsize=${statSync(log).size + 20}:unlimited`]);
      return () => execFileSync('prlimit', ['--pid', String(process.pid), '--fsize=unlimited:unlimited']);
    });
  });
});
