import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_LOG_FILE, SNAPSHOT_FILE } from '../../../../backtest/paper-venue/index.ts';
import { venueCommand } from '../../../../config/cli/commands/venue-command.ts';
import { VENUE_START_FILE } from '../../../../config/cli/commands/venue-data-dir.ts';
import { EXIT } from '../../../../config/cli/exit-codes.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const aDataDir = tempDirsRemovedAfterEach('keel-venue-command-replay-');

describe('keel venue on a data dir whose journal this Keel does not replay to the saved account', () => {
  it('refuses to start with exit 2 and says what to do, leaving the data dir as it was', async () => {
    const dataDir = aDataDir();
    writeFileSync(
      join(dataDir, VENUE_START_FILE),
      JSON.stringify({
        recording: null,
        seed: 1,
        startTime: Date.UTC(2026, 0, 1),
        apiKey: 'k',
        apiSecret: 's',
      }),
    );
    // The venue that wrote it held an order at close whose command this Keel's replay does not make.
    const order = { orderId: 'SIM-O-1', clientOrderId: 'kept', orderState: 'NEW', sym: 'BTC', orderQty: '1' };
    const snapshot = {
      format: 'keel-paper-venue',
      version: 2,
      keel: '0.1.9',
      released: 0,
      virtualNow: 0,
      journalLength: 0,
      markups: {},
      view: [{ portfolioId: 'PAPER-MAIN', orders: [order] }],
    };
    const text = JSON.stringify(snapshot);
    writeFileSync(join(dataDir, SNAPSHOT_FILE), text);
    writeFileSync(join(dataDir, COMMAND_LOG_FILE), '');
    let stderr = '';
    const io = { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) } };
    const code = await venueCommand(
      { host: '127.0.0.1', port: 0, recording: undefined, seed: 1, speed: 1, dataDir },
      io,
    );
    expect(code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(stderr).toContain(
      '(Keel 0.1.9) acknowledged: portfolio PAPER-MAIN: order SIM-O-1 (clientOrderId kept), held when saved, is not in the replay: NEW',
    );
    expect(stderr).toContain('start it on a new data dir');
    expect(readFileSync(join(dataDir, SNAPSHOT_FILE), 'utf8')).toBe(text);
  });
});
