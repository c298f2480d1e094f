import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 1);
const tempDir = tempDirsRemovedAfterEach('keel-cli-recording-damage-');

/** Ten 1m bars with each line's text passed through `edit`, and a config replaying them. */
async function configOf(
  dir: string,
  mode: 'backtest' | 'paper',
  edit: (lines: string[]) => string[],
): Promise<string> {
  const bars = await flatBarsRecordingIn(dir, 10, T0, BTC);
  writeFileSync(bars, `${edit(readFileSync(bars, 'utf8').trimEnd().split('\n')).join('\n')}\n`);
  const source =
    mode === 'backtest'
      ? `backtest:\n  recordings: [${bars}]\n  startingCash: { USDT: 10000 }\n`
      : `paper:\n  lockstep: true\n  source: { kind: recording, path: ${bars} }\n`;
  const file = join(dir, `${mode}.yaml`);
  writeFileSync(
    file,
    `mode: ${mode}\ninstruments: [${BTC}]\nstrategies:\n  - { id: s, use: sma-cross, params: { sym: ${BTC}, fast: 2, slow: 3 } }\n${source}report: { json: ${join(dir, 'result.json')}, html: ${join(dir, 'report.html')} }\n`,
  );
  return file;
}

describe('keel and damaged recordings', () => {
  it('backtests a recording with an odd line to its end, with a warning in the summary and one on stderr', async () => {
    const dir = tempDir();
    const config = await configOf(dir, 'backtest', (lines) => [
      ...lines.slice(0, 5),
      'not json',
      `{"recvTs":${T0},"source":"market-data","msg":{"arg":{"channel":"WEIRD_CHANNEL","sym":"${BTC}"},"data":{}}}`,
      ...lines.slice(5),
    ]);
    const run = await keelInProcess(['backtest', config, '--no-progress']);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    expect(run.stdout).toMatch(/⚠ recording .*bars\.jsonl: skipped 1 line \(not JSON\) at .*bars\.jsonl:6: /);
    expect(run.stdout).toMatch(
      /⚠ recording .*bars\.jsonl: skipped 1 line \(a message Keel does not decode\) at .*bars\.jsonl:7: .*WEIRD_CHANNEL/,
    );
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(2);
    const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as {
      meta: { warnings: string[] };
    };
    expect(result.meta.warnings.filter((w) => w.startsWith('recording '))).toHaveLength(2);
  }, 60_000);

  it('stops a backtest whose recording header cannot be read with exit 2 (a bad input file)', async () => {
    const config = await configOf(tempDir(), 'backtest', (lines) => [
      '{"format": "something else"}',
      ...lines.slice(1),
    ]);
    const run = await keelInProcess(['backtest', config, '--no-progress']);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toMatch(/bars\.jsonl:1: /);
  }, 60_000);

  it('stops a paper run whose source recording header cannot be read with exit 2 (a bad input file)', async () => {
    const config = await configOf(tempDir(), 'paper', (lines) => ['not a header', ...lines.slice(1)]);
    const run = await keelInProcess(['run', config]);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toMatch(
      /names a recording whose header cannot be read: .*bars\.jsonl:1: .* → at paper\.source\.path \(.*:\d+:\d+\)/,
    );
  }, 60_000);
});
