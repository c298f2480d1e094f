import { execFileSync } from 'node:child_process';
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
    buyOncePaperConfig(dir, { durationSec: 2, logLevel: 'warn', html: join(dir, 'report.html') });
    // Room for 128 KiB per file, which the child inherits: a file-size limit fails write(2) as a
    // full disk does, after the run's up-front checks; the report (its charts inlined) is larger.
    execFileSync('prlimit', ['--pid', String(process.pid), '--fsize=131072:unlimited']);
    let run: ReturnType<typeof keelChild>;
    try {
      run = keelChild(['run', 'paper.yaml'], { cwd: dir, timeoutMs: 60_000 });
    } finally {
      execFileSync('prlimit', ['--pid', String(process.pid), '--fsize=unlimited:unlimited']);
    }
    const ended = logRecords(run.stderr).find((r) => r.msg === 'paper session ended');
    expect(ended, `stderr:\n${run.stderr}`).toBeDefined();
    // The result fits and is named; the report, not written, is not.
    expect(ended?.result).toMatch(/result\.json$/);
    expect(ended).not.toHaveProperty('report');
    expect(ended?.outputsNotWritten).toMatch(/report\.html/);
  }, 90_000);
});
