import { writeFileSync } from 'node:fs';
import { access, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportPathsOf, writeRunOutputs } from '../../../config/compose/run-outputs.ts';
import { parseConfigText } from '../../../config/loader/index.ts';
import { aBacktestResult, aResultFailingAtItsLastFile } from '../../kit/backtest-result-builders.ts';
import { modeOf, modesUnder, POSIX_MODES } from '../../kit/file-modes.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-run-outputs-');

describe("a run's output files", () => {
  it("replace the previous run's files together, or leave them all as they were when one cannot be written", async () => {
    const dir = aTempDir();
    const paths = { json: join(dir, 'run-result.json'), html: join(dir, 'run-report.html') };
    const written = await writeRunOutputs(aBacktestResult(), paths, 'USDT');
    expect(written.csv).toHaveLength(10);
    const before = await Promise.all(
      [paths.json, paths.html, ...written.csv].map((p) => readFile(p, 'utf8')),
    );
    const broken = aResultFailingAtItsLastFile(150);
    await expect(writeRunOutputs(broken, paths, 'USDT')).rejects.toThrow('stopped while writing');
    const after = await Promise.all([paths.json, paths.html, ...written.csv].map((p) => readFile(p, 'utf8')));
    expect(after).toEqual(before);
    expect((await readdir(dir)).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  // A session killed while its CSVs and report were written (docker stop's SIGKILL) left no
  // result at all: every file went in place together, after the slowest.
  it("put the result in place first when asked, leaving no previous run's CSV or report beside it if a later file fails", async () => {
    const dir = aTempDir();
    const paths = { json: join(dir, 'run-result.json'), html: join(dir, 'run-report.html') };
    const written = await writeRunOutputs(aBacktestResult(), paths, 'USDT');
    const before = await readFile(paths.json, 'utf8');
    const broken = aResultFailingAtItsLastFile(150);
    await expect(writeRunOutputs(broken, paths, 'USDT', undefined, { resultFirst: true })).rejects.toThrow(
      'stopped while writing',
    );
    expect(await readFile(paths.json, 'utf8')).not.toBe(before);
    const present = await Promise.all(
      [paths.html, ...written.csv].map((p) =>
        access(p).then(
          () => p,
          () => undefined,
        ),
      ),
    );
    expect(present.filter((p) => p !== undefined)).toEqual([]);
    expect((await readdir(dir)).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it("default to out/<mode>-<strategy>: a plugin's file name, not its path", () => {
    const parsed = parseConfigText(
      `mode: backtest
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: brk, use: ~/strategies/breakout.ts }
backtest:
  recordings: [a.jsonl]
  startingCash: { USDT: 1000 }
`,
      { file: 'bt.yaml', env: {} },
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    expect(reportPathsOf(parsed.config)).toEqual({
      json: join(process.cwd(), 'out/backtest-breakout-result.json'),
      html: join(process.cwd(), 'out/backtest-breakout-report.html'),
    });
  });

  // A live run's result, fills and report hold the account's private data: they were 0644.
  it.skipIf(!POSIX_MODES)(
    'are written 0600, over files of a wider mode too, in the folders they create 0700',
    async () => {
      const dir = join(aTempDir(), 'out');
      const paths = { json: join(dir, 'live', 'result.json'), html: join(dir, 'html', 'report.html') };
      await writeRunOutputs(aBacktestResult(), paths, 'USDT');
      writeFileSync(paths.json, '{}', { mode: 0o644 });
      await writeRunOutputs(aBacktestResult(), paths, 'USDT');
      const modes = modesUnder(dir);
      expect(Object.keys(modes).filter((name) => name.endsWith('.csv'))).toHaveLength(10);
      expect(modes).toEqual(
        Object.fromEntries(Object.keys(modes).map((name) => [name, name.includes('.') ? '600' : '700'])),
      );
      expect(modeOf(dir)).toBe('700');
    },
  );
});
