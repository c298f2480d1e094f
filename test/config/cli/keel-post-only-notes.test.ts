import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { reportOutputFlags } from '../../kit/keel-child-process.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const PLUGIN = resolve('test/config/fixtures/post-only-taker-plugin.ts');
const SESSION = resolve('backtest/sessions/example-synthetic.jsonl.gz');
const SYM = 'BINANCE_PERP_BTC_USDT';
const dir = tempDirsRemovedAfterAll('keel-post-only-notes-')();
const config = join(dir, 'post-only.yaml');
writeFileSync(
  config,
  `mode: backtest
name: post-only
instruments: [${SYM}]
strategies:
  - id: p
    use: ${PLUGIN}
    params: { sym: ${SYM} }
backtest:
  recordings: [${SESSION}]
  startingCash: { USDT: 1000 }
  closeAtEnd: false
  eventCache: false
`,
);

// The terminal summary and the sweep file post-only (GTX) rejections as the report does: a note,
// not a setup warning with ⚠.
describe('post-only orders rejected because they would take, in the terminal', () => {
  it('are a note line without ⚠ in the backtest summary when every rejection is one, as in the report', async () => {
    const run = await keelInProcess(['backtest', config, '--no-progress', ...reportOutputFlags(dir, 'only')]);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    expect(run.stdout).not.toContain('⚠');
    expect(run.stdout).toMatch(/\n {2}note: the venue rejected 3 of the 4 orders placed; the first: /);
    expect(run.stdout).toContain(
      '\n  note: 3 post-only (GTX) orders were rejected because they would have taken liquidity',
    );
    const html = readFileSync(join(dir, 'only-report.html'), 'utf8');
    expect(html).toContain('id="run-notes"');
    expect(html).not.toContain('id="run-warnings"');
  }, 60_000);

  it('leave the rejection warning with its ⚠ among other rejections, the post-only ones a note', async () => {
    const run = await keelInProcess([
      'backtest',
      config,
      '--no-progress',
      '--set',
      'strategies.0.params.oversized=true',
      ...reportOutputFlags(dir, 'mixed'),
    ]);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    expect(run.stdout).toContain('\n  ⚠ the venue rejected 4 of the 5 orders placed');
    expect(run.stdout).toContain(
      '\n  note: 3 post-only (GTX) orders were rejected (of the 4 orders rejected) because they would have taken liquidity',
    );
  }, 60_000);

  it('are a note line without ⚠ under the sweep table', async () => {
    const run = await keelInProcess([
      'sweep',
      config,
      '--grid',
      'strategies.0.params.takers=2,3',
      '--metric',
      'totalReturn',
    ]);
    expect(run.code, run.stderr).toBe(EXIT.OK);
    expect(run.stdout).not.toContain('⚠');
    // The two rows' notes differ only in their counts: one line each, the counts as ranges.
    const postOnly =
      'note: in 2 of 2 rows: 2–3 post-only (GTX) orders were rejected because they would have taken liquidity';
    expect(run.stdout).toContain(postOnly);
    expect(run.stdout.split(postOnly)).toHaveLength(2);
    expect(run.stdout).toMatch(/note: in 2 of 2 rows: the venue rejected 2–3 of the 3–4 orders placed/);
    expect(run.stdout.match(/note: .*post-only \(GTX\) orders were rejected/g)).toHaveLength(1);
  }, 120_000);
});
