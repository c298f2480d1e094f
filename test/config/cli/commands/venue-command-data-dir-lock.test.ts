import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDataDir } from '../../../../backtest/paper-venue/data-dir-lock.ts';
import { venueCommand } from '../../../../config/cli/commands/venue-command.ts';
import { chooseVenueStart, VENUE_START_FILE } from '../../../../config/cli/commands/venue-data-dir.ts';
import { EXIT } from '../../../../config/cli/exit-codes.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const aDataDir = tempDirsRemovedAfterEach('keel-venue-command-lock-');

/** `keel venue --data-dir dir` in this process; it is refused before it listens, so it returns. */
async function refusedVenue(dataDir: string, env: Record<string, string> = {}) {
  let stderr = '';
  const io = { stdout: { write: () => true }, stderr: { write: (text: string) => (stderr += text) } };
  const code = await venueCommand(
    { host: '127.0.0.1', port: 0, recording: undefined, seed: 1, speed: 1, dataDir },
    io,
    env,
  );
  return { code, stderr };
}

// Two `keel venue` started at once on one data dir: the one that lost the lock wrote its start
// file (its credentials, its start time) before it was refused, over or before the winner's.
describe('keel venue refused a data dir another venue holds', () => {
  it('leaves no start file of its own where the winner has not written its own yet', async () => {
    const dataDir = aDataDir();
    // The winner holds the lock and is about to write its start file.
    const winner = lockDataDir(dataDir, Date.now());
    try {
      const loser = await refusedVenue(dataDir);
      expect(loser.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
      expect(loser.stderr).toContain(`holds the paper venue's data dir ${dataDir}`);
      expect(existsSync(join(dataDir, VENUE_START_FILE)), 'the refused venue wrote its start file').toBe(
        false,
      );
    } finally {
      winner.release();
    }
  });

  it("leaves the winner's start file as the winner wrote it, whatever feed the loser asked for", async () => {
    const dataDir = aDataDir();
    const winner = lockDataDir(dataDir, Date.now());
    try {
      chooseVenueStart(
        {
          recording: undefined,
          seed: 1,
          fixed: undefined,
          given: {},
          defaults: { balances: { USDT: '100000' }, fillModel: 'queue' },
        },
        dataDir,
        1000,
      );
      const written = readFileSync(join(dataDir, VENUE_START_FILE), 'utf8');
      const loser = await refusedVenue(dataDir, { KEEL_API_KEY: 'k', KEEL_API_SECRET: 's' });
      expect(loser.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
      expect(loser.stderr).toContain(`holds the paper venue's data dir ${dataDir}`);
      expect(readFileSync(join(dataDir, VENUE_START_FILE), 'utf8')).toBe(written);
    } finally {
      winner.release();
    }
  });

  it('frees the data dir when the start file is not its own: the next venue may take it', async () => {
    const dataDir = aDataDir();
    writeFileSync(join(dataDir, VENUE_START_FILE), '{"seed":');
    const refused = await refusedVenue(dataDir);
    expect(refused.code).toBe(EXIT.RUNTIME_FAILURE);
    expect(refused.stderr).toContain('is not a keel venue start file');
    expect(existsSync(join(dataDir, 'paper-venue.lock'))).toBe(false);
  });
});
