import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeResultFiles } from '../../../../backtest/report/index.ts';
import { EXIT } from '../../../../config/cli/index.ts';
import { KEEL_VERSION } from '../../../../core/model/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';
import { modeOf, POSIX_MODES } from '../../../kit/file-modes.ts';
import { keelInProcess } from '../../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterAll } from '../../../kit/temp-dirs.ts';

const dir = tempDirsRemovedAfterAll('keel-report-')();

describe('keel report: a result it cannot read is bad input (exit 2), named in one sentence', () => {
  it('says there is no file at a path that does not exist', async () => {
    const missing = join(dir, 'no-such-result.json');
    const run = await keelInProcess(['report', missing]);
    expect(run.stderr).toBe(
      `✖ keel report ${missing}: there is no file ${missing}; give the result JSON a run or backtest wrote (e.g. out/<name>-result.json)\n`,
    );
    expect(run.stdout).toBe('');
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  }, 60_000);

  it('says a directory is not a result file', async () => {
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const run = await keelInProcess(['report', folder]);
    expect(run.stderr).toBe(`✖ keel report ${folder}: ${folder} is a directory, not a result file\n`);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  }, 60_000);

  it('says a file that is not JSON is not a result', async () => {
    const text = join(dir, 'notes.json');
    writeFileSync(text, 'fills: 3\n');
    const run = await keelInProcess(['report', text]);
    expect(run.stderr).toMatch(new RegExp(`^✖ keel report ${text}: ${text} is not JSON: .+\\n$`));
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  }, 60_000);

  it('keeps exit 1 for a report it cannot write from a good result', async () => {
    const { json } = await writeResultFiles(aBacktestResult(20), join(dir, 'good'));
    writeFileSync(join(dir, 'a-file'), '');
    const run = await keelInProcess(['report', json, '--out', join(dir, 'a-file', 'report.html')]);
    expect(run.stderr).toMatch(/^✖ keel report .+\n$/);
    expect(run.code).toBe(EXIT.RUNTIME_FAILURE);
  }, 60_000);

  it('names the file it cannot write once, not twice (the writer names it already)', async () => {
    const { json } = await writeResultFiles(aBacktestResult(20), join(dir, 'into-folder'));
    const out = join(dir, 'a-folder-named.html');
    mkdirSync(out);
    const run = await keelInProcess(['report', json, '--out', out]);
    expect(run.stderr).toMatch(
      new RegExp(`^✖ keel report ${json}: cannot write [^\\n]*a-folder-named\\.html: `),
    );
    expect(run.stderr.match(/cannot write/g)).toHaveLength(1);
    expect(run.code).toBe(EXIT.RUNTIME_FAILURE);
  }, 60_000);

  it('creates a missing output folder, as keel backtest does', async () => {
    const { json } = await writeResultFiles(aBacktestResult(20), join(dir, 'for-new-folder'));
    const out = join(dir, 'new', 'deeper', 'report.html');
    const run = await keelInProcess(['report', json, '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT.OK);
    expect(existsSync(out)).toBe(true);
  }, 60_000);
});

describe('keel report: where it writes', () => {
  // Reviewer a11y, session 31: `keel report <result> <out>` failed with commander's bare
  // "too many arguments"; the output can be given as a second argument, as --out takes it.
  it('takes the HTML file as a second argument', async () => {
    const { json } = await writeResultFiles(aBacktestResult(20), join(dir, 'positional'));
    const out = join(dir, 'positional-out', 'page.html');
    const run = await keelInProcess(['report', json, out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT.OK);
    expect(existsSync(out)).toBe(true);
  }, 60_000);

  it('warns of a result a later Keel wrote and still writes the report', async () => {
    const result = aBacktestResult(20);
    const { json } = await writeResultFiles(
      { ...result, meta: { ...result.meta, keel: '999.0.0' } },
      join(dir, 'from-later-keel'),
    );
    const out = join(dir, 'from-later-keel-out', 'page.html');
    const run = await keelInProcess(['report', json, out]);
    expect(run.stderr).toBe(
      `⚠ keel report ${json}: ${json}: written by Keel 999.0.0, later than this Keel (${KEEL_VERSION}): what that Keel added to results is left out or may read otherwise; rebuild the report with that Keel\n`,
    );
    expect(run.code).toBe(EXIT.OK);
    expect(existsSync(out)).toBe(true);
  }, 60_000);

  it.skipIf(!POSIX_MODES)(
    'writes the report 0600, in the folders it creates 0700, as the result files are',
    async () => {
      const { json } = await writeResultFiles(aBacktestResult(20), join(dir, 'private', 'result'));
      const out = join(dir, 'private-out', 'page.html');
      const run = await keelInProcess(['report', json, out]);
      expect(run.code, run.stderr).toBe(EXIT.OK);
      expect([join(dir, 'private'), json, join(dir, 'private-out'), out].map(modeOf)).toEqual([
        '700',
        '600',
        '700',
        '600',
      ]);
    },
    60_000,
  );

  it('refuses the HTML file given twice, saying how to give it, and writes nothing', async () => {
    const { json } = await writeResultFiles(aBacktestResult(20), join(dir, 'twice'));
    const a = join(dir, 'twice-a.html');
    const b = join(dir, 'twice-b.html');
    const run = await keelInProcess(['report', json, a, '--out', b]);
    expect(run.stderr).toBe(
      `✖ keel report ${json}: give the HTML file once, as keel report <result> [out] or with --out\n`,
    );
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect([existsSync(a), existsSync(b)]).toEqual([false, false]);
  }, 60_000);
});
