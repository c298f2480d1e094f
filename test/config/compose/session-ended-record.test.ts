import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buyOncePaperConfig } from '../../kit/buy-once-paper-config.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-session-ended-');

/** The JSON records of a child's stderr (pino's lines). */
function logRecords(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("the log's last record, how the session ended", () => {
  it('is written at logging.level warn too, and names no result or report that was not written', () => {
    const dir = newDir();
    // `out` is a file where the report directory goes: the report cannot be written.
    writeFileSync(join(dir, 'out'), 'not a directory');
    buyOncePaperConfig(dir, {
      durationSec: 2,
      logLevel: 'warn',
      html: join(dir, 'out', 'sub', 'report.html'),
    });
    const run = keelChild(['run', 'paper.yaml'], { cwd: dir, timeoutMs: 60_000 });
    const ended = logRecords(run.stderr).find((r) => r.msg === 'paper session ended');
    expect(ended, `stderr:\n${run.stderr}`).toBeDefined();
    expect(ended).not.toHaveProperty('result');
    expect(ended).not.toHaveProperty('report');
    expect(ended?.outputsNotWritten).toMatch(/report\.html/);
  }, 90_000);
});
