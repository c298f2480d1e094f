import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { buyOncePaperConfig } from '../../kit/buy-once-paper-config.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-report-dir-');

describe('a paper session whose report directory cannot be made', () => {
  // Found before the session starts, not after it traded (a full disk at the end is
  // session-full-disk.test.ts: the outcome then names what was not written).
  it('is refused before it starts, naming report.html and its path, not a thrown error', async () => {
    const dir = newDir();
    // `out` is a file where the report directory goes: mkdir fails ENOTDIR/EEXIST, as it does ENOSPC on a full disk.
    writeFileSync(join(dir, 'out'), 'not a directory');
    const loaded = buyOncePaperConfig(dir, {
      durationSec: 2,
      logLevel: 'silent',
      html: join(dir, 'out', 'sub', 'report.html'),
    });
    const outcome = await runConfiguredSession(loaded, { handleSignals: false });
    if (outcome.ok) outcome.result.dispose?.();
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? [] : outcome.problems).toEqual([
      expect.stringMatching(/^✖ report\.html cannot be written: .*out\/sub\/report\.html: /),
    ]);
  }, 30_000);
});
