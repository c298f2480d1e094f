import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/exit-codes.ts';
import { runConfiguredSession } from '../../../config/compose/session-run.ts';
import { formatSessionSummary } from '../../../config/compose/session-summary.ts';
import { buyOncePaperConfig } from '../../kit/buy-once-paper-config.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-full-disk-');

describe('a paper session on a disk that fills up', () => {
  it('goes on past its recording, stops through its shutdown, and ends with its summary naming what was not written', async () => {
    const dir = newDir();
    const loaded = buyOncePaperConfig(dir, {
      durationSec: 3,
      logLevel: 'silent',
      recording: join(dir, 'session.jsonl'),
    });
    // Room for 8 KiB per file only: a file-size limit fails write(2) as a full disk does.
    execFileSync('prlimit', ['--pid', String(process.pid), '--fsize=8192:unlimited']);
    let outcome: Awaited<ReturnType<typeof runConfiguredSession>>;
    try {
      outcome = await runConfiguredSession(loaded, { handleSignals: false });
    } finally {
      execFileSync('prlimit', ['--pid', String(process.pid), '--fsize=unlimited:unlimited']);
    }
    if (!outcome.ok) throw new Error(outcome.problems.join('\n'));
    expect(outcome.fills).toHaveLength(1);
    expect(outcome.exitCode).toBe(EXIT.RUNTIME_FAILURE);
    expect(outcome.outputsNotWritten).toMatch(/^cannot write .*(result|report)\.[a-z.-]*: EFBIG/);
    // The result goes in place first (what a supervisor's kill must not cost) and fits; the
    // larger CSVs and report do not, and the summary says which files are missing.
    expect(outcome.outputsNotWritten).not.toMatch(/result\.json: /);
    expect(outcome.resultWritten).toBe(true);
    const written = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as { fills: unknown[] };
    expect(written.fills).toHaveLength(1);
    const summary = formatSessionSummary(outcome, true);
    expect(summary).toMatch(/⚠ the recording .*session\.jsonl is incomplete: writing it failed at /);
    expect(summary).toMatch(
      / {2}result: {4}.*result\.json\n {2}✖ CSVs and report not written: cannot write /,
    );
    expect(summary).not.toContain('result and report not written');
    expect(summary).toContain('Session done: ');
    outcome.result.dispose?.();
  }, 30_000);
});
