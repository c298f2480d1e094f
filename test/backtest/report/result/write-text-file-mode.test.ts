import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTextFile, writeTextFilesTogether } from '../../../../backtest/report/index.ts';
import { modeOf, POSIX_MODES } from '../../../kit/file-modes.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const aDir = tempDirsRemovedAfterEach('keel-text-file-mode-');

describe.skipIf(!POSIX_MODES)('the mode of a result file', () => {
  // A live run's result holds the account's orders, fills and balances: it was written 0644.
  it('is 0600 for a new file and for one replacing a file of a wider mode', async () => {
    const dir = aDir();
    const fresh = join(dir, 'result.json');
    const old = join(dir, 'result.fills.csv');
    writeFileSync(old, 'previous run\n', { mode: 0o644 });
    await writeTextFilesTogether([
      [fresh, ['{}\n']],
      [old, ['a,b\n']],
    ]);
    await writeTextFile(join(dir, 'report.html'), ['<html>']);
    expect([fresh, old, join(dir, 'report.html')].map(modeOf)).toEqual(['600', '600', '600']);
  });
});
