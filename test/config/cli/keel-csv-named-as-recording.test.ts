import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { BACKTEST_YAML } from '../../kit/config-texts.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-csv-as-recording-');
const YAHOO =
  'Date,Open,High,Low,Close,Adj Close,Volume\n2024-03-04 06:00:00,50000,50100,49900,50000,50000,10\n';
const BACKTEST_HINT =
  'names yahoo.csv, an OHLCV CSV, not a recording; name it in backtest.recordings as { csv: yahoo.csv, sym: <SYM> } (with interval, zone... as keel import-csv takes them), or make it a recording with keel import-csv';

/** A backtest config naming yahoo.csv as a plain recording (line 13), and the CSV beside it. */
function backtestConfig(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'yahoo.csv'), YAHOO);
  const file = join(dir, 'bt.yaml');
  writeFileSync(
    file,
    BACKTEST_YAML.replace('recordings: [a.jsonl]', 'recordings: [yahoo.csv]').replace(
      'fast: 10',
      'fast: 10\n      sym: BINANCE_PERP_BTC_USDT',
    ),
  );
  return file;
}

/** A paper config running sma-cross, with `rest` after its strategies (line 7 on), and yahoo.csv beside it. */
function paperConfigWith(rest: string): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'yahoo.csv'), YAHOO);
  const file = join(dir, 'paper.yaml');
  writeFileSync(
    file,
    `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - id: sma
    use: sma-cross
    params: { sym: BINANCE_PERP_BTC_USDT }
${rest}report: { json: ${join(dir, 'r.json')}, html: ${join(dir, 'r.html')} }
`,
  );
  return file;
}

/** A paper config replaying yahoo.csv as its recording (line 8). */
const paperConfig = (): string => paperConfigWith('paper:\n  source: { kind: recording, path: yahoo.csv }\n');

/** A paper config warming up on yahoo.csv named as a plain history entry (line 10). */
const paperWarmUpConfig = (): string =>
  paperConfigWith(
    'warmUp:\n  period: 1h\n  history:\n    - yahoo.csv\npaper:\n  source: { kind: synthetic, seed: 1 }\n',
  );

// keel validate passed these ("✔ valid" and a ⚠), then the run refused them: "header is not JSON",
// with neither the config's line nor a word of how to replay a CSV.
describe('an OHLCV CSV named where a recording is expected', () => {
  it('keel validate and keel backtest refuse a backtest entry at its line, with the CSV hint', async () => {
    const file = backtestConfig();
    for (const args of [
      ['validate', file],
      ['backtest', file, '--no-progress'],
    ]) {
      const run = await keelInProcess(args);
      expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`✖ backtest.recordings[0] ${BACKTEST_HINT}`);
      expect(run.stderr).toContain(`→ at backtest.recordings[0] (${file}:13:`);
      expect(run.stderr).not.toContain('header is not JSON');
    }
  }, 60_000);

  it.each([
    {
      entry: 'a paper source, with the import-csv hint',
      config: paperConfig,
      problem:
        '✖ source.path names yahoo.csv, an OHLCV CSV, not a recording; make it a recording with keel import-csv',
      at: 'paper.source.path',
      line: 8,
    },
    {
      entry: 'a plain warm-up history entry, with the { csv, sym } hint',
      config: paperWarmUpConfig,
      problem:
        '✖ warmUp.history[0] names yahoo.csv, an OHLCV CSV, not a recording; name it in warmUp.history as { csv: yahoo.csv, sym: <SYM> } (with interval, zone... as keel import-csv takes them), or make it a recording with keel import-csv',
      at: 'warmUp.history[0]',
      line: 10,
    },
  ])(
    'keel validate and keel run refuse $entry, at its line',
    async ({ config, problem, at, line }) => {
      const file = config();
      for (const args of [
        ['validate', file],
        ['run', file],
      ]) {
        const run = await keelInProcess(args);
        expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
        expect(run.stderr).toContain(problem);
        expect(run.stderr).toContain(`→ at ${at} (${file}:${line}:`);
        expect(run.stderr).not.toContain('header is not JSON');
      }
    },
    60_000,
  );
});
