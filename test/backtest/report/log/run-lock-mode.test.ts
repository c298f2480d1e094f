import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireRunLock } from '../../../../backtest/report/index.ts';
import { modeOf, POSIX_MODES } from '../../../kit/file-modes.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const aDir = tempDirsRemovedAfterEach('keel-lock-mode-');

describe.skipIf(!POSIX_MODES)('the mode of a run lock', () => {
  it('is 0600, in a directory it creates 0700', () => {
    const dir = aDir();
    const out = join(dir, 'out', 'result.json');
    const locked = acquireRunLock([out], Date.now());
    expect(locked.ok).toBe(true);
    try {
      expect([modeOf(join(dir, 'out')), modeOf(`${out}.lock`)]).toEqual(['700', '600']);
    } finally {
      if (locked.ok) locked.lock.release();
    }
  });
});
