import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { buyOncePaperConfig } from '../../kit/buy-once-paper-config.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-report-dir-');

describe('a paper session whose report directory cannot be made', () => {
  it('still ends with its outcome and summary (outputsNotWritten), not a thrown error', async () => {
    const dir = newDir();
    // `out` is a file where the report directory goes: mkdir fails ENOTDIR/EEXIST, as it does ENOSPC on a full disk.
    writeFileSync(join(dir, 'out'), 'not a directory');
    const loaded = buyOncePaperConfig(dir, {
      durationSec: 2,
      logLevel: 'silent',
      html: join(dir, 'out', 'sub', 'report.html'),
    });
    const outcome = await runConfiguredSession(loaded, { handleSignals: false });
    if (!outcome.ok) throw new Error(outcome.problems.join('\n'));
    expect(outcome.fills).toHaveLength(1);
    expect(outcome.outputsNotWritten).toMatch(/report\.html/);
    outcome.result.dispose?.();
  }, 30_000);
});
